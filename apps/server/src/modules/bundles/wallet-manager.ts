import type { SellRoute } from "@bundler/shared";
import { type Address, getAddress } from "viem";
import { NotFoundError } from "../../lib/errors.ts";
import type { BundleEmpties } from "./bundle-empties.ts";
import type { BundleSells } from "./bundle-sells.ts";
import type { BundlesRepository } from "./bundles.repository.ts";
import { type BundlesService, ownedBundle, walletsOf } from "./bundles.service.ts";
import { formatTokens } from "./sell-amounts.ts";

interface SellInput {
  address: string;
  amount: string;
  isPercentage: boolean;
  requestId?: string | undefined;
  slippageBps: number;
  route: SellRoute;
}

/**
 * The wallet manager's five calls (SPEC §7): reads through BundlesService, sells and empties
 * through BundleSells and BundleEmpties, after the ownership checks every one of them makes first (the caller's
 * own bundle, wallets of that bundle: anything else is a 404 and nothing moves).
 */
export class WalletManager {
  constructor(
    private readonly repository: BundlesRepository,
    readonly bundles: BundlesService,
    private readonly sells: BundleSells,
    private readonly empties: BundleEmpties,
  ) {}

  async sellWallets(ownerId: string, input: SellInput & { wallets: string[] }) {
    const bundle = await ownedBundle(this.repository, ownerId, input.address);
    const wallets = walletsOf(bundle, input.wallets);
    const { outcomes, bundles } = await this.sells.sellAll(
      ownerId,
      bundle,
      wallets,
      "bundle",
      input,
      input.requestId,
    );
    return {
      transactions: outcomes.flatMap((o) => o.transactions),
      totalTokens: formatTokens(outcomes.reduce((sum, o) => sum + o.sold, 0n)),
      bundles,
    };
  }

  async sellDeveloper(ownerId: string, input: SellInput) {
    const bundle = await ownedBundle(this.repository, ownerId, input.address);
    if (!bundle.developer) throw new NotFoundError("This bundle has no developer wallet");
    const {
      outcomes: [outcome],
      bundles,
    } = await this.sells.sellAll(
      ownerId,
      bundle,
      [getAddress(bundle.developer)],
      "deployer",
      input,
      input.requestId,
    );
    const transactions = outcome?.transactions ?? [];
    const sale = transactions.at(-1);
    if (!sale) throw new Error("the developer sell answered nothing");
    return { transaction: sale, transactions: transactions.slice(0, -1), bundles };
  }

  async empty(
    ownerId: string,
    input: { address: string; wallets: string[]; receiver: string; requestId?: string | undefined },
  ) {
    const bundle = await ownedBundle(this.repository, ownerId, input.address);
    const wallets = walletsOf(bundle, input.wallets);
    return this.empties.empty(ownerId, bundle, wallets, input.receiver as Address, input.requestId);
  }
}
