import { LaunchpadManagerArtifact } from "@bundler/contracts";
import { type Abi, decodeEventLog, erc20Abi, type Hex, isAddressEqual, parseAbi } from "viem";
import { rpcBatch } from "./rpcBatch.ts";

export interface GetSaleOutcomesParameters {
  hashes: readonly Hex[];
}

/** What a mined sale sold and what its seller received, both in their smallest units. */
export interface SaleOutcome {
  /** Tokens that left the seller. */
  tokens: bigint;
  /** BNB the seller received, after the launchpad's trading fee (wei). */
  bnb: bigint;
}

/** One answer per hash: null for a transaction that is not a mined, successful sale. */
export type GetSaleOutcomesReturnType = Array<SaleOutcome | null>;

export interface SaleReceipt {
  status: Hex;
  from: Hex;
  to: Hex | null;
  logs: ReadonlyArray<{ address: Hex; topics: Hex[]; data: Hex }>;
}

const wethAbi = parseAbi(["event Withdrawal(address indexed src, uint256 wad)"]);

type Log = SaleReceipt["logs"][number];

/** A log read against `abi`, or null when it is not one of its events. */
const decode = (
  abi: Abi,
  log: Log,
): { eventName: string; args: Record<string, unknown> } | null => {
  try {
    const event = decodeEventLog({ abi, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
    return {
      eventName: event.eventName ?? "",
      args: (event.args ?? {}) as Record<string, unknown>,
    };
  } catch {
    return null;
  }
};

/**
 * A receipt's sale, from its logs: the tokens the seller's `Transfer`s sent away, and the BNB
 * it received: the launchpad's `TokenSale` (proceeds less the trading fee) on the curve, or the
 * WETH the DEX router unwrapped for it (its last `Withdrawal` by the router: a tax token's
 * dispatch inside the sale unwraps for the token before it) after graduation. Null when
 * the transaction failed or moved none of the seller's tokens (an approval, a transfer, a buy).
 *
 * @example
 * saleOutcomeOf(receipt) // { tokens: 6_369_839n * 10n ** 18n, bnb: 180_123_000_000_000_000n }
 */
export const saleOutcomeOf = (receipt: SaleReceipt): SaleOutcome | null => {
  if (receipt.status !== "0x1" || !receipt.to) return null;
  const seller = receipt.from;
  const called = receipt.to;
  let tokens = 0n;
  let bnb = 0n;
  let unwrapped = 0n;
  for (const log of receipt.logs) {
    const transfer = decode(erc20Abi, log);
    if (transfer?.eventName === "Transfer") {
      const { from, value } = transfer.args as { from: Hex; value: bigint };
      if (isAddressEqual(from, seller)) tokens += value;
      continue;
    }
    if (isAddressEqual(log.address, called)) {
      const event = decode(LaunchpadManagerArtifact.abi as Abi, log);
      if (event?.eventName === "TokenSale") {
        const args = event.args as { account: Hex; cost: bigint; fee: bigint };
        if (isAddressEqual(args.account, seller)) bnb += args.cost - args.fee;
        continue;
      }
    }
    const withdrawal = decode(wethAbi, log);
    if (withdrawal?.eventName === "Withdrawal") {
      const { src, wad } = withdrawal.args as { src: Hex; wad: bigint };
      if (isAddressEqual(src, called)) unwrapped = wad;
    }
  }
  return tokens > 0n ? { tokens, bnb: bnb + unwrapped } : null;
};

/**
 * What each transaction sold and fetched, if it is a mined sale (see `saleOutcomeOf`): one
 * JSON-RPC batch of receipts, whatever the number of hashes.
 *
 * @example
 * const [outcome] = await getSaleOutcomes(rpcUrl, { hashes: [saleHash] });
 */
export const getSaleOutcomes = async (
  rpcUrl: string,
  { hashes }: GetSaleOutcomesParameters,
): Promise<GetSaleOutcomesReturnType> => {
  const receipts = await rpcBatch<SaleReceipt | null>(
    rpcUrl,
    hashes.map((hash) => ({ method: "eth_getTransactionReceipt", params: [hash] })),
  );
  return receipts.map(({ result, error }) => {
    if (error) throw new Error(`receipt read failed: ${error.message}`);
    return result ? saleOutcomeOf(result) : null;
  });
};
