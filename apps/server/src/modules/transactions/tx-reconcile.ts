import { getTxStatuses, rpcBatch } from "@bundler/chain";
import type { Hex } from "viem";
import {
  OPEN_STATUSES,
  type OpenTx,
  type TransactionsRepository,
  type TxRow,
} from "./transactions.repository.ts";
import { broadcast } from "./tx-broadcast.ts";
import type { Receipt, TxContext } from "./tx-context.ts";
import {
  confirmOutOfWindow,
  confirmReplaced,
  dropStale,
  isConfirmed,
  landedAfterDrop,
} from "./tx-unmined.ts";

/**
 * One pass over every open transaction: receipts, nonces and the head in one batch; mined and
 * reverted ones are settled once their receipt is `MINED_CONFIRMATIONS` blocks deep (until
 * then they stay open, and are not sent again), those whose nonce another transaction used
 * are replaced, a bundle's past its window and the ones the node keeps refusing are dropped,
 * the rest rebroadcast when due. Answers the rows this pass moved to a final state.
 */
export async function reconcilePass(
  ctx: TxContext,
  { dropAfterMs, rebroadcastAfterMs }: { dropAfterMs: number; rebroadcastAfterMs: number },
): Promise<TxRow[]> {
  const { repo, chain } = ctx;
  // Without the signed bytes: only the few due for a rebroadcast need them (`broadcast`).
  // A dropped one can still land from a pool that kept it: it is watched, never sent again,
  // until a receipt (mined after all) or its nonce used by another (replaced) settles it.
  const [all, watched] = await Promise.all([repo.open(), repo.watchedDropped()]);
  if (all.length === 0 && watched.length === 0) return [];
  // One signed ahead whose predecessor is open was never broadcast (it goes out only once
  // that one is settled): it has no receipt or nonce to read, and waits for that one.
  const ids = new Set(all.map((row) => row.id));
  const isHeld = (row: OpenTx) =>
    row.status === "signed" && row.afterId !== null && ids.has(row.afterId);
  const held = all.filter(isHeld);
  const open = all.filter((row) => !isHeld(row));
  const froms = [...new Set([...open, ...watched].map((row) => row.from))];
  const answers = await rpcBatch<unknown>(chain.rpcUrl, [
    { method: "eth_blockNumber", params: [] },
    ...[...open, ...watched].map((row) => ({
      method: "eth_getTransactionReceipt",
      params: [row.txHash],
    })),
    ...froms.map((from) => ({ method: "eth_getTransactionCount", params: [from, "latest"] })),
  ]);
  const head = BigInt((answers[0]?.result as Hex | undefined) ?? "0x0");
  const minedNonce = new Map(
    froms.map((from, i) => {
      const answer = answers[1 + open.length + watched.length + i];
      if (!answer?.result) throw new Error(`could not read the nonce of ${from}`);
      return [from, Number(BigInt(answer.result as Hex))];
    }),
  );

  const finished: TxRow[] = [];
  const finish = async (
    rows: OpenTx[],
    values: Parameters<TransactionsRepository["finish"]>[1],
  ) => {
    finished.push(
      ...(await repo.finish(
        rows.map((r) => r.id),
        values,
      )),
    );
  };

  // Mined rows are finished in groups of one block and fee: one UPDATE for a whole batch.
  const mined = new Map<string, { rows: OpenTx[]; blockNumber: bigint; fee: bigint }>();
  const addMined = (row: OpenTx, receipt: Receipt) => {
    const blockNumber = BigInt(receipt.blockNumber);
    const fee = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice ?? row.gasPrice);
    const group = mined.get(`${blockNumber}:${fee}`);
    if (group) group.rows.push(row);
    else mined.set(`${blockNumber}:${fee}`, { rows: [row], blockNumber, fee });
  };
  const reverted: Array<{ row: OpenTx; receipt: Receipt }> = [];
  const replaced: OpenTx[] = [];
  const stale: OpenTx[] = [];
  const orphaned: OpenTx[] = [];
  const rebroadcast: OpenTx[] = [];
  /** Bundle transactions the first read says were not included by the end of their window. */
  const outOfWindow: OpenTx[] = [];
  const awaited = await awaitedStates(repo, [...open, ...held], open, answers.slice(1));
  for (const row of held) {
    const state = awaited.get(row.afterId as string);
    if (state === "mined") rebroadcast.push(row);
    else if (state === "failed") orphaned.push(row);
  }
  for (const [i, row] of open.entries()) {
    const answer = answers[1 + i];
    if (answer?.error) continue; // unsure: decide next pass
    const receipt = answer?.result as Receipt | null | undefined;
    if (receipt) {
      // In the last blocks: a reorg may still take it back. Decided once it is deep enough.
      if (!isConfirmed(receipt, head)) continue;
      if (receipt.status === "0x1") addMined(row, receipt);
      else reverted.push({ row, receipt });
      continue;
    }
    if ((minedNonce.get(row.from) ?? 0) > row.nonce) {
      replaced.push(row);
      continue;
    }
    const waitingFor = row.status === "signed" && row.afterId ? awaited.get(row.afterId) : null;
    if (waitingFor === "open") continue;
    if (waitingFor === "failed") {
      orphaned.push(row);
      continue;
    }
    if (row.validUntilBlock !== null) {
      if (head > row.validUntilBlock) outOfWindow.push(row);
      continue;
    }
    const age = Date.now() - row.createdAt.getTime();
    if (age > dropAfterMs) stale.push(row);
    else if (
      row.status === "signed" ||
      !row.lastBroadcastAt ||
      Date.now() - row.lastBroadcastAt.getTime() > rebroadcastAfterMs
    )
      rebroadcast.push(row);
  }

  for (const row of await confirmOutOfWindow(chain.rpcUrl, outOfWindow, head))
    await finish([row], {
      status: "dropped",
      error: `the bundle was not included by block ${row.validUntilBlock}${row.error ? `: ${row.error}` : ""}`,
    });

  const landed: Array<{ row: OpenTx; receipt: Receipt }> = [];
  const reused: OpenTx[] = [];
  for (const [i, row] of watched.entries()) {
    const answer = answers[1 + open.length + i];
    if (!answer || answer.error) continue;
    const receipt = answer.result as Receipt | null | undefined;
    if (receipt) {
      if (isConfirmed(receipt, head)) landed.push({ row, receipt });
    } else if ((minedNonce.get(row.from) ?? 0) > row.nonce) reused.push(row);
  }

  // One read again for both: open ones whose nonce shows used, and watched dropped ones.
  const again = await confirmReplaced(chain.rpcUrl, [...replaced, ...reused], head);
  const wasDropped = new Set(reused.map((row) => row.id));
  // A receipt found on the second read counts only once it is deep enough, as any other.
  const deep = again.mined.filter(({ receipt }) => isConfirmed(receipt, head));
  const confirmed = {
    mined: deep.filter(({ row }) => !wasDropped.has(row.id)),
    replaced: again.replaced.filter((row) => !wasDropped.has(row.id)),
  };
  landed.push(...deep.filter(({ row }) => wasDropped.has(row.id)));
  for (const { row, receipt } of confirmed.mined) {
    if (receipt.status === "0x1") addMined(row, receipt);
    else reverted.push({ row, receipt });
  }
  for (const group of mined.values())
    await finish(group.rows, {
      status: "mined",
      error: null,
      blockNumber: group.blockNumber,
      fee: group.fee,
    });

  if (reverted.length > 0) {
    const statuses = await getTxStatuses(chain.rpcUrl, {
      hashes: reverted.map(({ row }) => row.txHash as Hex),
    });
    for (const [i, { row, receipt }] of reverted.entries()) {
      const status = statuses[i];
      await finish([row], {
        status: "reverted",
        error: status?.status === "failed" ? status.reason : "execution reverted",
        blockNumber: BigInt(receipt.blockNumber),
        fee: BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice ?? row.gasPrice),
      });
    }
  }
  for (const row of confirmed.replaced)
    await finish([row], {
      status: "replaced",
      error: `nonce ${row.nonce} of ${row.from} was used by another transaction`,
    });
  // What the watch decided: a dropped one whose nonce went to another is replaced (not told
  // to the listeners: it had failed and still has); one that landed is mined after all.
  await repo.finish(
    again.replaced.filter((row) => wasDropped.has(row.id)).map((row) => row.id),
    { status: "replaced", error: "dropped, then its nonce was used by another transaction" },
    ["dropped"],
  );
  const replacedNow = new Set(confirmed.replaced.map((row) => row.id));
  const nonceHeld = new Set(
    open.filter((row) => !replacedNow.has(row.id)).map((row) => `${row.from}:${row.nonce}`),
  );
  finished.push(
    ...(await landedAfterDrop(
      ctx,
      landed.filter(({ row }) => !nonceHeld.has(`${row.from}:${row.nonce}`)),
    )),
  );
  await dropStale(chain.rpcUrl, stale, finish, rebroadcast, (row) =>
    row.error
      ? `the node refused it: ${row.error}`
      : `not mined within ${Math.round(dropAfterMs / 60_000)} min and no longer known to the node`,
  );
  // Never broadcast while it waited, and what would have funded its sender failed: dropped
  // at once, unless the node holds it after all.
  await dropStale(
    chain.rpcUrl,
    orphaned,
    finish,
    rebroadcast,
    () => "never sent: the transaction it waited for was not mined",
  );
  await broadcast(ctx, rebroadcast);
  return finished;
}

/**
 * Where the transactions that signed-ahead ones (`after`) wait for stand in this pass: open
 * (no receipt yet, or itself waiting), mined, or failed (reverted, or final without being
 * mined). `checked` are the open ones whose receipts this pass read, in `receipts`' order.
 */
async function awaitedStates(
  repo: TransactionsRepository,
  rows: OpenTx[],
  checked: OpenTx[],
  receipts: Array<{ result?: unknown; error?: unknown } | undefined>,
): Promise<Map<string, "open" | "mined" | "failed">> {
  const state = new Map<string, "open" | "mined" | "failed">();
  const waiting = rows.filter((row) => row.status === "signed" && row.afterId);
  if (waiting.length === 0) return state;
  const index = new Map(checked.map((row, i) => [row.id, i]));
  const open = new Set(rows.map((row) => row.id));
  const gone: string[] = [];
  for (const { afterId } of waiting) {
    const id = afterId as string;
    const i = index.get(id);
    if (i !== undefined) {
      const receipt = receipts[i]?.result as Receipt | null | undefined;
      state.set(id, !receipt ? "open" : receipt.status === "0x1" ? "mined" : "failed");
    } else if (open.has(id)) state.set(id, "open");
    else gone.push(id);
  }
  for (const [id, status] of await repo.statusesOf(gone))
    state.set(
      id,
      status === "mined" ? "mined" : OPEN_STATUSES.includes(status) ? "open" : "failed",
    );
  return state;
}
