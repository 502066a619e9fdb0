import { rpcBatch } from "@bundler/chain";
import type { Hex } from "viem";
import type { OpenTx, TxRow, TxStatusValue } from "./transactions.repository.ts";
import type { Receipt, TxContext } from "./tx-context.ts";

/** Blocks a nonce must have been used for before its unmined transaction counts as replaced. */
export const REPLACED_CONFIRMATIONS = 2n;

/**
 * Blocks on top of a receipt's block before its transaction is recorded mined (or reverted).
 * "Mined" is final, and money is decided on it (a refund or a payout done, a sweep made, a
 * dispersal's next step): a receipt in the last blocks can still go with a reorg (or the local
 * builder taking back a refused bundle's block), and the money would be counted as paid when
 * it never was. Until then the transaction stays open, and is not sent again.
 */
export const MINED_CONFIRMATIONS = 2n;

/** Whether a receipt's block is `MINED_CONFIRMATIONS` below `head` (read with it). */
export const isConfirmed = (receipt: Receipt, head: bigint): boolean =>
  BigInt(receipt.blockNumber) + MINED_CONFIRMATIONS <= head;

/**
 * "Replaced" is final, and a caller may pay again after it (a refund's next attempt), so it
 * is never concluded from one read: a receipt and a nonce read in one batch can disagree (the
 * node mines between them, or a load-balanced endpoint answers them from nodes at different
 * heights), and a mined transaction would then look replaced. A candidate is read again:
 * a receipt now → it was mined after all; still none while its nonce was already used
 * `REPLACED_CONFIRMATIONS` blocks below the head → replaced; otherwise the next pass decides.
 */
export async function confirmReplaced(
  rpcUrl: string,
  candidates: OpenTx[],
  head: bigint,
): Promise<{ mined: Array<{ row: OpenTx; receipt: Receipt }>; replaced: OpenTx[] }> {
  if (candidates.length === 0) return { mined: [], replaced: [] };
  const froms = [...new Set(candidates.map((row) => row.from))];
  const settled = head > REPLACED_CONFIRMATIONS ? head - REPLACED_CONFIRMATIONS : 0n;
  const answers = await rpcBatch<unknown>(rpcUrl, [
    ...candidates.map((row) => ({ method: "eth_getTransactionReceipt", params: [row.txHash] })),
    ...froms.map((from) => ({
      method: "eth_getTransactionCount",
      params: [from, `0x${settled.toString(16)}`],
    })),
  ]);
  const settledNonce = new Map<string, number>();
  for (const [i, from] of froms.entries()) {
    const result = answers[candidates.length + i]?.result as Hex | undefined;
    if (result) settledNonce.set(from, Number(BigInt(result)));
  }
  const mined: Array<{ row: OpenTx; receipt: Receipt }> = [];
  const replaced: OpenTx[] = [];
  for (const [i, row] of candidates.entries()) {
    const answer = answers[i];
    if (!answer || answer.error) continue;
    const receipt = answer.result as Receipt | null | undefined;
    if (receipt) mined.push({ row, receipt });
    else if ((settledNonce.get(row.from) ?? 0) > row.nonce) replaced.push(row);
  }
  return { mined, replaced };
}

/**
 * Of bundle transactions a first read found without a receipt and with their nonce unused
 * while the head was past their window, those a second read proves were not included by the
 * window's last block: the sender's nonce read at that very block (`validUntilBlock`) is still
 * theirs. "Dropped" lets the same request sell again, so it is never concluded from one read:
 * behind a load-balanced endpoint the head can come from a node ahead of the one that answered
 * the receipt and the nonce, and a bundle that landed would look dropped. A nonce read at a
 * fixed block means the same on every node that has the block; a node that has not reached it
 * answers an error, and the next pass decides. The block read is the window's last, or two
 * blocks under the head when that is later (a nonce only grows: unused then, unused at the
 * window's end): full nodes keep the state of recent blocks only (BSC's, 128), so a window that
 * ended long ago (the server was down) is still decided.
 */
export async function confirmOutOfWindow(
  rpcUrl: string,
  candidates: OpenTx[],
  head: bigint,
): Promise<OpenTx[]> {
  if (candidates.length === 0) return [];
  const answers = await rpcBatch<Hex>(
    rpcUrl,
    candidates.map((row) => {
      const end = row.validUntilBlock as bigint;
      const at = head - 2n > end ? head - 2n : end;
      return { method: "eth_getTransactionCount", params: [row.from, `0x${at.toString(16)}`] };
    }),
  ).catch(() => []);
  return candidates.filter((row, i) => {
    const count = answers[i]?.result;
    return count !== undefined && !answers[i]?.error && Number(BigInt(count)) <= row.nonce;
  });
}

/**
 * Past `dropAfterMs` (or waiting for one that failed): a transaction the node still holds can
 * land, so it stays open (and is rebroadcast); one it does not hold is dropped, and `why`
 * says why.
 */
export async function dropStale(
  rpcUrl: string,
  stale: OpenTx[],
  finish: (
    rows: OpenTx[],
    values: { status: TxStatusValue; error: string | null },
  ) => Promise<void>,
  rebroadcast: OpenTx[],
  why: (row: OpenTx) => string,
): Promise<void> {
  if (stale.length === 0) return;
  const known = await rpcBatch<unknown>(
    rpcUrl,
    stale.map((row) => ({ method: "eth_getTransactionByHash", params: [row.txHash] })),
  );
  for (const [i, row] of stale.entries()) {
    const answer = known[i];
    if (answer?.error) continue;
    if (answer?.result) {
      rebroadcast.push(row);
      continue;
    }
    await finish([row], { status: "dropped", error: why(row) });
  }
}

/**
 * Dropped ones that landed after all: mined (or reverted) from now on. Not while an open row
 * of ours holds the same nonce (the caller leaves those to the pass that finds that one
 * replaced); should another process record one meanwhile, the unique live nonce refuses the
 * change and the next pass tries again.
 */
export async function landedAfterDrop(
  { repo, log }: TxContext,
  landed: Array<{ row: OpenTx; receipt: Receipt }>,
): Promise<TxRow[]> {
  const moved: TxRow[] = [];
  for (const { row, receipt } of landed) {
    const ok = receipt.status === "0x1";
    await repo
      .finish(
        [row.id],
        {
          status: ok ? "mined" : "reverted",
          error: ok ? "landed after it was declared dropped" : "execution reverted",
          blockNumber: BigInt(receipt.blockNumber),
          fee: BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice ?? row.gasPrice),
        },
        ["dropped"],
      )
      .then((rows) => moved.push(...rows))
      .catch((error: Error) =>
        log?.(
          `transactions: ${row.txHash} landed after it was dropped; recorded next pass (${error.message})`,
        ),
      );
  }
  return moved;
}
