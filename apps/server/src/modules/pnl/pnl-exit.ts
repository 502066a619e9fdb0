import { prepareSells } from "@bundler/chain";
import { type Address, getAddress } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import { tokenHoldings } from "../../lib/shared-reads.ts";

/** A bundle's worth now: every wallet's BNB and tokens, and what selling them all would return. */
export interface BundleWorth {
  /** The block the holdings were read at. */
  blockNumber: bigint;
  /** Lower-case address → BNB and tokens held. */
  holdings: Map<string, { bnb: bigint; token: bigint }>;
  /** Lower-case address → what its sale returns in the one-block exit simulation (after fees). */
  exit: Map<string, bigint>;
  exitTotal: bigint;
  /** The curve's last price, wei per whole token (0 when unknown). */
  price: bigint;
  /** `_tokenInfos(token).template` (its kind: a tax token's creator type), null when unread. */
  template: bigint | null;
}

const WHOLE_TOKEN = 10n ** 18n;

/**
 * What every wallet holds and what selling all of it in one block would fetch: one multicall
 * (the holdings, shared per block with the wallet manager's balances) and ONE simulation of the
 * sales in landing order (`prepareSells`, the one the sell path runs), so each sale is priced
 * after the ones before it. Cached per block: every caller at one head shares one simulation.
 */
export const bundleWorth = (
  chain: ChainContext,
  token: string,
  addresses: readonly string[],
): Promise<BundleWorth> => {
  const wallets = addresses.map((a) => getAddress(a));
  return chain.reads.once(`pnl-worth:${token}:${wallets.join(",")}`.toLowerCase(), async () => {
    const launchpad = chain.launchpad;
    const trade = chain.trade ?? null;
    const read = await tokenHoldings(chain, {
      token: getAddress(token),
      addresses: wallets,
      ...(trade ? { helper: trade.helper } : {}),
      // The template too: a tax token's DEX exit sells through the fee-on-transfer swap.
      ...(launchpad && trade ? { launchpad, spenders: [launchpad, trade.router] } : {}),
    });
    const holdings = new Map(
      read.holdings.map((h) => [h.address.toLowerCase(), { bnb: h.bnb, token: h.token }]),
    );
    const exit = new Map<string, bigint>();
    const sellers = read.holdings
      .filter((h) => h.token > 0n)
      .map((h) => ({ address: h.address as Address, amount: h.token }));
    if (launchpad && trade && read.info && sellers.length > 0) {
      // Gas price 0: the exit is what the tokens fetch, whatever BNB a wallet holds for gas.
      const prepared = await prepareSells(chain.client, {
        launchpad,
        ...trade,
        token: getAddress(token),
        sellers,
        gasPrice: 0n,
        holdings: read,
      });
      for (const sell of prepared.sells)
        if ("quote" in sell) exit.set(sell.address.toLowerCase(), sell.quote.amountOut);
    }
    return {
      blockNumber: read.blockNumber,
      holdings,
      exit,
      exitTotal: [...exit.values()].reduce((sum, v) => sum + v, 0n),
      price: read.info?.lastPrice ?? 0n,
      template: read.template ?? null,
    };
  });
};

/** price × tokens, wei. */
export const markOf = (price: bigint, tokens: bigint): bigint => (price * tokens) / WHOLE_TOKEN;

/** How long after its last read a bundle's worth is still worked out ahead, each block. */
const VIEWED_FOR_MS = 30_000;

/**
 * The bundles whose P&L was read lately (a page open on them polls it): the per-block pass
 * works out their worth as soon as a block comes, so the page's next read finds the exit
 * simulation done instead of running it. Nothing is done for bundles nobody reads.
 */
export class ViewedBundles {
  private readonly viewed = new Map<string, { addresses: readonly string[]; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  seen(token: string, addresses: readonly string[]): void {
    this.viewed.set(token, { addresses, at: this.now() });
  }

  get size(): number {
    return this.viewed.size;
  }

  /** Each lately read bundle's worth at the head `blockNumber` (already read: nothing again). */
  async warm(chain: ChainContext, blockNumber: bigint): Promise<void> {
    if (this.viewed.size === 0) return;
    chain.reads.observe(blockNumber);
    const now = this.now();
    const reads: Array<Promise<unknown>> = [];
    for (const [token, { addresses, at }] of this.viewed) {
      if (now - at > VIEWED_FOR_MS) this.viewed.delete(token);
      else reads.push(bundleWorth(chain, token, addresses).catch(() => null));
    }
    await Promise.all(reads);
  }
}
