import { creatorTypeOf, getTaxTokenEarnings } from "@bundler/chain";
import { getAddress } from "viem";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import type { BundlesRepository } from "../bundles/bundles.repository.ts";
import { bundleNotFound, ownedBundle } from "../bundles/bundles.service.ts";
import type { PriceService } from "../price/price.service.ts";
import type { PnlBundle, PnlRepository } from "./pnl.repository.ts";
import { bundleWorth, type ViewedBundles } from "./pnl-exit.ts";
import { csvOf, driftOf, historyOf, sharedLinesOf, totalsOf, walletsOf } from "./pnl-figures.ts";
import { holdersOf } from "./pnl-lines.ts";

/**
 * A launched bundle's P&L for its owner: the ledger the per-block pass keeps (read, never the
 * chain's history), with the bundle's worth now (one multicall and one exit simulation per
 * block, shared by every caller). Another user's token is a 404, as for the wallet manager.
 */
export class PnlService {
  constructor(
    private readonly bundles: BundlesRepository,
    private readonly repo: PnlRepository,
    private readonly chain: ChainContext | undefined,
    private readonly prices: PriceService,
    private readonly viewed?: ViewedBundles,
  ) {}

  async pnl(ownerId: string, address: string) {
    const { bundle, chain } = await this.owned(ownerId, address);
    const [rows, inFlight, worth, bnbUsd] = await Promise.all([
      this.repo.sums(bundle.token),
      this.repo.inFlight(bundle.token, bundle.ownerId),
      this.worth(chain, bundle),
      this.prices
        .bnbUsd()
        .then((p) => p.price)
        .catch(() => null),
    ]);
    return {
      totals: totalsOf(rows, worth),
      wallets: walletsOf(bundle, rows, worth),
      lines: sharedLinesOf(rows),
      drift: driftOf(bundle, rows, worth, inFlight),
      bnbUsd,
      asOfBlock: worth.blockNumber.toString(),
      taxToken: await this.taxToken(chain, bundle, worth.template),
    };
  }

  /** A type-5 tax token's rate and what its recipient and holders have earned; null otherwise. */
  private async taxToken(chain: ChainContext, bundle: PnlBundle, template: bigint | null) {
    if (template === null || creatorTypeOf(template) !== 5n) return null;
    const earned = await getTaxTokenEarnings(chain.client, { token: getAddress(bundle.token) });
    return {
      feeRate: Number(earned.feeRate),
      recipient: earned.recipient,
      recipientEarnedWei: earned.recipientEarned.toString(),
      holdersEarnedWei: earned.holdersEarned.toString(),
    };
  }

  async history(ownerId: string, address: string) {
    const { bundle, chain } = await this.owned(ownerId, address);
    const [rows, marks, worth] = await Promise.all([
      this.repo.ledger(bundle.token),
      this.repo.marks(bundle.token),
      this.worth(chain, bundle),
    ]);
    return { points: historyOf(rows, marks, worth.exitTotal) };
  }

  /** The ledger as CSV, and a file name for it. */
  async csv(ownerId: string, address: string) {
    const row = await ownedBundle(this.bundles, ownerId, address);
    const rows = await this.repo.ledger(row.tokenAddress);
    const name = `pnl-${row.ticker.replace(/[^A-Za-z0-9_-]/g, "") || "bundle"}-${getAddress(row.tokenAddress)}.csv`;
    return { csv: csvOf(rows), name };
  }

  /** The caller's bundle, in one query: 404 for an unknown token or another user's. */
  private async owned(ownerId: string, address: string) {
    const bundle = await this.repo.bundle(address, ownerId);
    if (!bundle) throw bundleNotFound();
    return { bundle, chain: requireChain(this.chain) };
  }

  private worth(chain: ChainContext, bundle: PnlBundle) {
    const holders = holdersOf(bundle).map((h) => h.address);
    this.viewed?.seen(bundle.token, holders);
    return bundleWorth(chain, bundle.token, holders);
  }
}
