import { decodeErrorResult, type Hex, hexToBigInt } from "viem";
import { describeRevert } from "../errors.ts";
import { type SaleOutcome, type SaleReceipt, saleOutcomeOf } from "./getSaleOutcomes.ts";
import { rpcBatch } from "./rpcBatch.ts";

export interface GetTxStatusesParameters {
  hashes: readonly Hex[];
}

export type TxStatus =
  | { hash: Hex; status: "pending" }
  /** `sale`: what it sold and fetched, read from the same receipt (null: not a sale). */
  | { hash: Hex; status: "success"; blockNumber: bigint; sale: SaleOutcome | null }
  | { hash: Hex; status: "failed"; blockNumber: bigint; reason: string };

export type GetTxStatusesReturnType = TxStatus[];

interface Receipt extends SaleReceipt {
  blockNumber: Hex;
}
interface Transaction {
  from: Hex;
  to: Hex | null;
  input: Hex;
  value: Hex;
  gas: Hex;
}

/**
 * Statuses of many transactions in one RPC round trip; failed ones are replayed
 * (one more batch) to decode why they reverted.
 *
 * @example
 * const statuses = await getTxStatuses(rpcUrl, { hashes });
 */
export const getTxStatuses = async (
  rpcUrl: string,
  { hashes }: GetTxStatusesParameters,
): Promise<GetTxStatusesReturnType> => {
  const receipts = await rpcBatch<Receipt | null>(
    rpcUrl,
    hashes.map((hash) => ({ method: "eth_getTransactionReceipt", params: [hash] })),
  );
  const failed = hashes.filter((_, i) => receipts[i]?.result?.status === "0x0");
  const reasons = new Map(
    (await explainFailures(rpcUrl, failed)).map((reason, i) => [failed[i], reason] as const),
  );
  return hashes.map((hash, i): TxStatus => {
    const receipt = receipts[i]?.result;
    if (!receipt) return { hash, status: "pending" };
    const blockNumber = hexToBigInt(receipt.blockNumber);
    if (receipt.status === "0x1")
      return { hash, status: "success", blockNumber, sale: saleOutcomeOf(receipt) };
    return {
      hash,
      status: "failed",
      blockNumber,
      reason: reasons.get(hash) ?? "execution reverted",
    };
  });
};

interface CallTrace {
  error?: string;
  revertReason?: string;
  output?: Hex;
}

/** A revert's data (Error(string), or a custom error) in words; null when there is none. */
const decodeRevertData = (data: Hex | undefined): string | null => {
  if (!data || data.length <= 2) return null;
  try {
    const decoded = decodeErrorResult({ data });
    return describeRevert(String(decoded.args?.[0] ?? decoded.errorName));
  } catch {
    return data;
  }
};

/**
 * Why each failed transaction reverted: its own trace where the node offers
 * `debug_traceTransaction` (exact, even inside a bundle), else a replay.
 */
const explainFailures = async (rpcUrl: string, hashes: Hex[]): Promise<string[]> => {
  if (hashes.length === 0) return [];
  const traces = await rpcBatch<CallTrace>(
    rpcUrl,
    hashes.map((hash) => ({
      method: "debug_traceTransaction",
      params: [hash, { tracer: "callTracer" }],
    })),
  );
  const traced = traces.map(({ result }) =>
    result
      ? (result.revertReason && describeRevert(result.revertReason)) ||
        decodeRevertData(result.output) ||
        (result.error ? describeRevert(result.error) : null)
      : null,
  );
  const untraced = hashes.filter((_, i) => traced[i] === null);
  const replayed = await replayFailures(rpcUrl, untraced);
  let next = 0;
  return traced.map((reason) => reason ?? (replayed[next++] as string));
};

/**
 * Replays each failed transaction against the state before its block to read the revert
 * reason (a transaction that depended on an earlier one in its block may replay differently).
 */
const replayFailures = async (rpcUrl: string, hashes: Hex[]): Promise<string[]> => {
  if (hashes.length === 0) return [];
  const transactions = await rpcBatch<Transaction & { blockNumber: Hex }>(
    rpcUrl,
    hashes.map((hash) => ({ method: "eth_getTransactionByHash", params: [hash] })),
  );
  const replays = await rpcBatch<Hex>(
    rpcUrl,
    transactions.map(({ result: tx }) => ({
      method: "eth_call",
      params: tx
        ? [
            { from: tx.from, to: tx.to, data: tx.input, value: tx.value, gas: tx.gas },
            `0x${(hexToBigInt(tx.blockNumber) - 1n).toString(16)}`,
          ]
        : [{}, "latest"],
    })),
  );
  return replays.map((replay) => {
    const decoded = decodeRevertData(replay.error?.data as Hex | undefined);
    if (decoded) return decoded;
    const message = replay.error?.message?.replace(/^execution reverted:?\s*/, "");
    return message
      ? describeRevert(message)
      : "execution reverted (it succeeds when replayed alone)";
  });
};
