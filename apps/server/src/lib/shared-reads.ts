import {
  type GetTokenHoldingsParameters,
  type GetTokenHoldingsReturnType,
  getBalances,
  getSaleOutcomes,
  getTokenHoldings,
  getTxStatuses,
  rpcBatch,
  type SaleOutcome,
  type TxStatus,
} from "@bundler/chain";
import type { Address, Hex } from "viem";
import type { ChainContext } from "./chain-context.ts";

/**
 * The polling routes' chain reads, through the block cache (`chain.reads`): what many callers ask
 * within one block is read once, and different callers' keys go out together.
 */

const bnbKeys = (addresses: readonly Address[]) => addresses.map((a) => a.toLowerCase());
const readBnb = (chain: ChainContext) => async (keys: string[]) =>
  (await getBalances(chain.client, { addresses: keys as Address[] })).map((b) => b.bnb);

/** BNB balances of `addresses`, in order: one multicall per batch, shared per block. */
export const bnbBalances = (chain: ChainContext, addresses: readonly Address[]) =>
  chain.reads.many("bnb", bnbKeys(addresses), readBnb(chain));

/**
 * BNB balances of `addresses` for a poll: answered from the last block's values when every
 * address was read at the head or the block before (`BlockCache.recent`), with `block`, the
 * oldest block they were read at. The same reads and keys as `bnbBalances`.
 */
export const recentBnbBalances = (chain: ChainContext, addresses: readonly Address[]) =>
  chain.reads.recent("bnb", bnbKeys(addresses), readBnb(chain));

/** A token's holdings of `addresses` (getTokenHoldings), one read per block for the same ask. */
export const tokenHoldings = (
  chain: ChainContext,
  params: GetTokenHoldingsParameters,
): Promise<GetTokenHoldingsReturnType> =>
  chain.reads.once(
    [
      "holdings",
      params.token,
      params.helper ?? "",
      params.launchpad ?? "",
      (params.spenders ?? []).join(","),
      params.addresses.join(","),
    ]
      .join(":")
      .toLowerCase(),
    () => getTokenHoldings(chain.client, params),
  );

/** Receipts' statuses (getTxStatuses) per hash, shared per block and batched across callers. */
export const txStatuses = (chain: ChainContext, hashes: readonly Hex[]): Promise<TxStatus[]> =>
  chain.reads.many(
    "tx",
    hashes.map((hash) => hash.toLowerCase()),
    (keys) => getTxStatuses(chain.rpcUrl, { hashes: keys as Hex[] }),
  );

/** Whether the node holds each transaction (mined or in its mempool), per block and batched. */
export const txKnown = (chain: ChainContext, hashes: readonly Hex[]): Promise<boolean[]> =>
  chain.reads.many(
    "tx-known",
    hashes.map((hash) => hash.toLowerCase()),
    async (keys) =>
      (
        await rpcBatch<{ hash: Hex } | null>(
          chain.rpcUrl,
          keys.map((hash) => ({ method: "eth_getTransactionByHash", params: [hash] })),
        )
      ).map((answer) => Boolean(answer.result)),
  );

/** What each mined transaction sold and fetched (getSaleOutcomes), shared per block and batched. */
export const saleOutcomes = (
  chain: ChainContext,
  hashes: readonly Hex[],
): Promise<Array<SaleOutcome | null>> =>
  chain.reads.many(
    "sale",
    hashes.map((hash) => hash.toLowerCase()),
    (keys) => getSaleOutcomes(chain.rpcUrl, { hashes: keys as Hex[] }),
  );
