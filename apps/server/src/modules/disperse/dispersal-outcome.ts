import { type PlanDispersalReturnType, TRANSFER_GAS } from "@bundler/chain";
import type { TxRow } from "../transactions/transactions.repository.ts";
import { legProgress, legRoute, returnable } from "./dispersal-route.ts";
import { type TransferRow, toTransfer } from "./dispersal-transfers.ts";
import { bnb, type DispersalOutput, describe, outcomeLine } from "./dispersal-words.ts";
import {
  type DispersalRow,
  type DisperseRepository,
  type LegRow,
  MOVING,
} from "./disperse.repository.ts";

/**
 * sending → processing once a first transfer is mined; → completed, partial or failed once
 * every chain delivered or gave its money back. True when the dispersal is finished.
 */
export async function finalize(
  repo: DisperseRepository,
  output: DispersalOutput,
  d: DispersalRow,
  legs: LegRow[],
  transfers: TransferRow[],
  plan: PlanDispersalReturnType,
): Promise<boolean> {
  const fee = TRANSFER_GAS * BigInt(d.gasPrice);
  let returned = 0n;
  /** What a failed chain could not give back, and the wallet that holds it. */
  const stranded: { wallet: string; value: bigint }[] = [];
  let started = false;
  const settled = legs.map((leg) => {
    const progress = legProgress(d.antiBubblemaps, leg.index, transfers);
    started ||= progress.started;
    if (progress.delivered) return "delivered";
    if (progress.failedStep === null) return "active";
    const value = plan.legs[leg.index]?.transfers[progress.failedStep] ?? 0n;
    const held = progress.failed ? returnable(progress.failed, value, fee) : value;
    const returnDue = held > fee && d.funder !== null;
    const back = progress.returned;
    if (returnDue && back?.status !== "confirmed" && back?.status !== "failed") return "active";
    if (back?.status === "confirmed") returned += BigInt(back.value);
    else if (held > 0n) {
      // A failed return that ran paid its gas; a return not worth its gas was never sent.
      const wallet = legRoute(d.receiver, leg)[progress.failedStep] ?? d.receiver;
      stranded.push({ wallet, value: back?.paidGas ? held - fee : held });
    }
    return "failed";
  });
  if (d.status === "sending" && started) {
    if (await repo.transition(d.id, ["sending"], "processing")) d.status = "processing";
  }
  if (settled.includes("active")) return false;
  const delivered = settled.filter((state) => state === "delivered").length;
  const status = delivered === legs.length ? "completed" : delivered > 0 ? "partial" : "failed";
  if (await repo.transition(d.id, MOVING, status, { closedAt: new Date() })) {
    d.status = status;
    output.emit(d.ownerId, outcomeLine(d, status, delivered, legs.length, returned));
    for (const { wallet, value } of stranded) {
      const line = `${bnb(value)} could not be returned and stays in ${wallet} (its key is stored)`;
      output.emit(d.ownerId, line);
      output.log?.(`disperser: dispersal ${d.id}: ${line}`);
    }
  }
  return true;
}

/** Tells each finished transfer's owner what happened, in the dispersal's words. */
export async function announce(
  repo: DisperseRepository,
  output: DispersalOutput,
  rows: TxRow[],
): Promise<void> {
  // A batch of a thousand transfers belongs to a few dispersals: each is read once.
  const dispersals = new Map<string, Promise<DispersalRow | undefined>>();
  for (const row of rows) {
    const t = toTransfer(row);
    if (!t) continue;
    if (!dispersals.has(t.dispersalId)) dispersals.set(t.dispersalId, repo.byId(t.dispersalId));
    const d = await dispersals.get(t.dispersalId);
    if (d) output.emit(d.ownerId, describe(d, t, t.status === "confirmed"));
  }
}
