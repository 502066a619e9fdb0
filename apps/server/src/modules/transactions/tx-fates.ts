import { rpcBatch } from "@bundler/chain";
import type { Hex } from "viem";
import { isFinal, type TxSummary } from "./transactions.repository.ts";
import type { Receipt, TxContext } from "./tx-context.ts";
import { RetryRefused, type TxIntent } from "./tx-intent.ts";

/**
 * `TxManager.fates`: what can still become of final transactions that were not mined, from
 * one batch read of their receipts and their senders' mined nonces.
 */
export async function fatesOf(
  rpcUrl: string,
  rows: Array<Pick<TxSummary, "key" | "txHash" | "from" | "nonce" | "status">>,
): Promise<Array<"landed" | "may land" | "never">> {
  if (rows.length === 0) return [];
  const answers = await rpcBatch<unknown>(rpcUrl, [
    ...rows.map((row) => ({ method: "eth_getTransactionReceipt", params: [row.txHash] })),
    ...rows.map((row) => ({ method: "eth_getTransactionCount", params: [row.from, "latest"] })),
  ]);
  return rows.map((row, i) => {
    const receipt = answers[i];
    const count = answers[rows.length + i]?.result as Hex | undefined;
    if (!receipt || receipt.error || !count)
      throw new Error(`could not read what became of ${row.key}`);
    // Reverted, it moved nothing (and a receipt that reverted moved nothing either).
    if (row.status === "reverted") return "never";
    const status = (receipt.result as Receipt | null)?.status;
    if (status) return status === "0x1" ? "landed" : "never";
    return row.nonce >= Number(BigInt(count)) ? "may land" : "never";
  });
}

/**
 * For intents that retry an earlier attempt (`retries`): the nonce each must take (that
 * attempt's, while still unused), or none when the chain used it for another transaction.
 * Throws when an earlier attempt is open, was never recorded, or landed.
 */
export async function retryNonces(
  { repo, chain }: TxContext,
  intents: TxIntent[],
): Promise<Map<string, number>> {
  const pinned = new Map<string, number>();
  const retrying = intents.filter((intent) => intent.retries !== undefined);
  if (retrying.length === 0) return pinned;
  const earlier = new Map(
    (await repo.byKeys(retrying.map((intent) => intent.retries as string))).map((row) => [
      row.key,
      row,
    ]),
  );
  const rows = retrying.map((intent) => {
    const row = earlier.get(intent.retries as string);
    if (!row) throw new Error(`${intent.key} retries ${intent.retries}, which was never recorded`);
    if (!isFinal(row.status))
      throw new RetryRefused(`${intent.key} retries ${row.key}, which is still on its way`);
    if (row.status === "mined")
      throw new RetryRefused(`${intent.key} retries ${row.key}, which landed`);
    return row;
  });
  const fates = await fatesOf(chain.rpcUrl, rows).catch((error: Error) => {
    throw new RetryRefused(`${error.message}; the retry waits`);
  });
  for (const [i, row] of rows.entries()) {
    const intent = retrying[i] as TxIntent;
    if (fates[i] === "landed")
      throw new RetryRefused(`${intent.key} retries ${row.key}, which landed after all`);
    if (fates[i] === "may land") pinned.set(intent.key, row.nonce);
  }
  return pinned;
}
