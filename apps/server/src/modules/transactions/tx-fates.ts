import { rpcBatch } from "@bundler/chain";
import type { Hex } from "viem";
import { ChainReadError } from "../../lib/chain-failure.ts";
import { isFinal, type TxRow, type TxSummary } from "./transactions.repository.ts";
import type { Receipt, TxContext } from "./tx-context.ts";
import { RetryRefused, type TxIntent } from "./tx-intent.ts";
import { REPLACED_CONFIRMATIONS } from "./tx-unmined.ts";

/**
 * What can still become of a final transaction that was not recorded mined: "landed" (it has
 * a receipt), "may land" (its nonce is unused: a pool may hold it), "never" (it reverted, or
 * its nonce went to another transaction `REPLACED_CONFIRMATIONS` blocks deep while it has no
 * receipt), or "settling" (its nonce went to another only in the last blocks: decided later).
 */
export type Fate = "landed" | "may land" | "never" | "settling";

type FateRow = Pick<TxSummary, "key" | "txHash" | "from" | "nonce" | "status">;

/**
 * `TxManager.fates`: the fate of each row. "Never" is final and a caller pays again after it,
 * so it is never concluded from one read, as `confirmReplaced` does: a receipt and a nonce
 * read in one batch can disagree (a block mined between them, a load-balanced endpoint), and
 * a transaction that landed would look replaced. A row whose nonce looks used is read again:
 * a receipt now is its fate; otherwise its nonce must be used at the head less
 * `REPLACED_CONFIRMATIONS`, or it is still settling.
 */
export async function fatesOf(rpcUrl: string, rows: FateRow[]): Promise<Fate[]> {
  if (rows.length === 0) return [];
  const first = await rpcBatch<unknown>(rpcUrl, [
    ...rows.map((row) => ({ method: "eth_getTransactionReceipt", params: [row.txHash] })),
    ...rows.map((row) => ({ method: "eth_getTransactionCount", params: [row.from, "latest"] })),
    { method: "eth_blockNumber", params: [] },
  ]);
  const head = first[rows.length * 2]?.result as Hex | undefined;
  const fates: Array<Fate | "used"> = rows.map((row, i) => {
    const receipt = first[i];
    const count = first[rows.length + i]?.result as Hex | undefined;
    if (!receipt || receipt.error || !count || !head)
      throw new ChainReadError(`could not read what became of ${row.key}`);
    // Reverted, it moved nothing (and a receipt that reverted moved nothing either).
    if (row.status === "reverted") return "never";
    const status = (receipt.result as Receipt | null)?.status;
    if (status) return status === "0x1" ? "landed" : "never";
    return row.nonce >= Number(BigInt(count)) ? "may land" : "used";
  });
  const used = rows.filter((_, i) => fates[i] === "used");
  if (used.length === 0) return fates as Fate[];
  const settledAt = BigInt(head as Hex) - REPLACED_CONFIRMATIONS;
  const again = await rpcBatch<unknown>(rpcUrl, [
    ...used.map((row) => ({ method: "eth_getTransactionReceipt", params: [row.txHash] })),
    ...used.map((row) => ({
      method: "eth_getTransactionCount",
      params: [row.from, `0x${(settledAt > 0n ? settledAt : 0n).toString(16)}`],
    })),
  ]);
  let j = 0;
  return fates.map((fate, i) => {
    if (fate !== "used") return fate;
    const row = rows[i] as FateRow;
    const receipt = again[j];
    const count = again[used.length + j]?.result as Hex | undefined;
    j++;
    if (!receipt || receipt.error || !count)
      throw new ChainReadError(`could not read what became of ${row.key}`);
    const status = (receipt.result as Receipt | null)?.status;
    if (status) return status === "0x1" ? "landed" : "never";
    return row.nonce < Number(BigInt(count)) ? "never" : "settling";
  });
}

/**
 * For intents that retry an earlier attempt (`retries`): the nonce each must take, or none.
 * Every attempt before it counts, not only the last: one that landed late refuses the retry
 * (the payment was made), one that may still land lends the retry its nonce (so only one of
 * them can ever land), and one whose nonce is still settling makes the retry wait. Throws
 * `RetryRefused` when an earlier attempt is open, landed or may land at two nonces; an error
 * when the attempt named was never recorded.
 */
export async function retryNonces(
  { repo, chain }: TxContext,
  intents: TxIntent[],
): Promise<Map<string, number>> {
  const pinned = new Map<string, number>();
  for (const intent of intents) {
    if (intent.retries === undefined) continue;
    const attempts = await repo.attemptsFrom(intent.retries);
    if (attempts.length === 0)
      throw new Error(`${intent.key} retries ${intent.retries}, which was never recorded`);
    const nonce = await nonceAfter(intent, attempts, chain.rpcUrl);
    if (nonce !== undefined) pinned.set(intent.key, nonce);
  }
  return pinned;
}

const nonceAfter = async (
  intent: TxIntent,
  attempts: TxRow[],
  rpcUrl: string,
): Promise<number | undefined> => {
  const open = attempts.find((row) => !isFinal(row.status));
  if (open) throw new RetryRefused(`${intent.key} retries ${open.key}, which is still on its way`);
  const mined = attempts.find((row) => row.status === "mined");
  if (mined) throw new RetryRefused(`${intent.key} retries ${mined.key}, which landed`);
  const fates = await fatesOf(rpcUrl, attempts).catch((error: Error) => {
    // The node's failure stays the cause: a request that meets it is answered 503, try again.
    throw new RetryRefused(`${error.message}; the retry waits`, { cause: error });
  });
  const landed = attempts.find((_, i) => fates[i] === "landed");
  if (landed) throw new RetryRefused(`${intent.key} retries ${landed.key}, which landed after all`);
  const settling = attempts.find((_, i) => fates[i] === "settling");
  if (settling)
    throw new RetryRefused(
      `${intent.key} waits: the nonce of ${settling.key} was used in the last blocks`,
    );
  const nonces = new Set(attempts.filter((_, i) => fates[i] === "may land").map((r) => r.nonce));
  if (nonces.size > 1)
    throw new RetryRefused(
      `${intent.key} waits: earlier attempts may still land at nonces ${[...nonces].join(", ")}`,
    );
  return [...nonces][0];
};
