import { getTokenInfos } from "@bundler/chain";
import { BUNDLES_PAGE_SIZE, type Bundle, type WalletBalance } from "@bundler/shared";
import { type Address, formatEther, getAddress } from "viem";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { tokenHoldings } from "../../lib/shared-reads.ts";
import { tokenLinks } from "./bundle-links.ts";
import type { BundleRow, BundlesRepository } from "./bundles.repository.ts";
import { formatTokens } from "./sell-amounts.ts";

export const bundleNotFound = () => new NotFoundError("Bundle not found");

/** The caller's bundle of `address`: 404 for an unknown token or another user's bundle. */
export const ownedBundle = async (
  repository: BundlesRepository,
  ownerId: string,
  address: string,
): Promise<BundleRow> => {
  const row = await repository.findOwned(ownerId, address);
  if (!row) throw bundleNotFound();
  return row;
};

/**
 * `wallets` as the bundle spells them, each once: 404 naming the first that is not one of the
 * bundle's, before anything is read or sent.
 */
export const walletsOf = (bundle: BundleRow, wallets: readonly string[]): Address[] => {
  const ours = new Map(bundle.wallets.map((w) => [w.toLowerCase(), getAddress(w)]));
  const picked = new Map<string, Address>();
  for (const wallet of wallets) {
    const own = ours.get(wallet.toLowerCase());
    if (!own) throw new NotFoundError(`Wallet ${wallet} is not in this bundle`);
    picked.set(wallet.toLowerCase(), own);
  }
  return [...picked.values()];
};

/**
 * The wallet manager's reads: the caller's bundles (launches), and one bundle's balances. Chain
 * state comes in one multicall per call; the launchpad's public info (four.meme on BSC) is asked
 * per bundle and a failure there only costs the image and trade link.
 */
export class BundlesService {
  constructor(
    private readonly repository: BundlesRepository,
    private readonly chain: ChainContext | undefined,
    private readonly log: (message: string) => void = () => {},
  ) {}

  /** One page of the caller's bundles, newest first (SPEC §9: 9 a page). */
  async list(ownerId: string, page = 1) {
    const pageSize = BUNDLES_PAGE_SIZE;
    const { rows, total } = await this.repository.page(ownerId, {
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    const graduated = await this.graduated(rows.map((row) => row.tokenAddress as Address));
    const bundles = await Promise.all(rows.map((row, i) => this.present(row, graduated[i])));
    return { bundles, total, page, pageSize };
  }

  /**
   * Every wallet's and the developer's balances, the token's supply and state: one multicall,
   * shared per block by every caller asking the same (`chain.reads`).
   */
  async balances(ownerId: string, address: string) {
    const bundle = await ownedBundle(this.repository, ownerId, address);
    const chain = requireChain(this.chain);
    const wallets = bundle.wallets.map((w) => getAddress(w));
    const developer = bundle.developer ? getAddress(bundle.developer) : null;
    const read = await tokenHoldings(chain, {
      token: bundle.tokenAddress as Address,
      addresses: developer ? [...wallets, developer] : wallets,
      ...(chain.trade ? { helper: chain.trade.helper } : {}),
    });
    const entries: WalletBalance[] = read.holdings.map((h) => ({
      address: h.address,
      tokenBalance: formatTokens(h.token),
      tokenUnits: h.token.toString(),
      bnbBalance: formatEther(h.bnb),
    }));
    return {
      bundle: await this.present(bundle, read.info?.liquidityAdded ?? false),
      totalSupply: read.totalSupply.toString(),
      balances: entries.slice(0, wallets.length),
      developerBalance: developer ? (entries.at(-1) ?? null) : null,
    };
  }

  /** Whether each token graduated, in one multicall; unknown (false) when the chain is away. */
  private async graduated(tokens: Address[]): Promise<boolean[]> {
    const helper = this.chain?.trade?.helper;
    if (!this.chain || !helper || tokens.length === 0) return tokens.map(() => false);
    try {
      const infos = await getTokenInfos(this.chain.client, { helper, tokens });
      return infos.map((info) => info?.liquidityAdded ?? false);
    } catch (error) {
      this.log(`bundles: could not read the tokens' state: ${(error as Error).message}`);
      return tokens.map(() => false);
    }
  }

  private async present(row: BundleRow, graduated = false): Promise<Bundle> {
    const links = await tokenLinks(this.chain, { ...row, graduated }, this.log);
    const wallets = row.wallets.map((w) => getAddress(w));
    return {
      address: getAddress(row.tokenAddress),
      ticker: row.ticker,
      name: row.name,
      wallets,
      walletCount: wallets.length,
      developer: row.developer ? getAddress(row.developer) : null,
      ...links,
      graduated,
      blockNumber: row.blockNumber.toString(),
      createdAt: row.createdAt.toISOString(),
    };
  }
}
