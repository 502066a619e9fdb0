import { rpcBatch } from "@bundler/chain";
import type { Hex } from "viem";
import type { OpenTx } from "./transactions.repository.ts";
import type { TxContext } from "./tx-context.ts";

/** Node answers that mean "I have it" (or had it) rather than "I refuse it". */
const BENIGN_REFUSAL = /already known|known transaction|nonce too low|already imported/i;

/** Broadcasts rows in one batch and records each answer; nothing is decided here. */
export async function broadcast(
  { repo, chain, log }: TxContext,
  rows: Array<OpenTx & { rawTx?: string }>,
): Promise<void> {
  if (rows.length === 0) return;
  const missing = rows.filter((row) => row.rawTx === undefined).map((row) => row.id);
  const raws = missing.length > 0 ? await repo.rawTxs(missing) : new Map<string, string>();
  const answers = await rpcBatch<Hex>(
    chain.rpcUrl,
    rows.map((row) => ({
      method: "eth_sendRawTransaction",
      params: [row.rawTx ?? raws.get(row.id)],
    })),
  ).catch((error: Error) => {
    log?.(`transactions: broadcast failed: ${error.message}`);
    return null;
  });
  if (!answers) return;
  const accepted: string[] = [];
  for (const [i, answer] of answers.entries()) {
    const row = rows[i] as OpenTx;
    const message = answer.error?.message ?? "";
    if (!answer.error || BENIGN_REFUSAL.test(message)) accepted.push(row.id);
    else {
      log?.(`transactions: the node refused ${row.txHash}: ${message}`);
      await repo.broadcasted([row.id], false, message);
    }
  }
  await repo.broadcasted(accepted, true, null);
}
