import { type PlanDispersalReturnType, planDispersal, TRANSFER_GAS } from "@bundler/chain";
import type { Address } from "viem";
import { groupBy } from "../../lib/group-by.ts";
import type { RefundRoute } from "../../lib/refund-route.ts";
import { legRoute, returnable } from "./dispersal-route.ts";
import type { TransferRow, TransferStep } from "./dispersal-transfers.ts";
import { bnb, type DispersalOutput } from "./dispersal-words.ts";
import type {
  DepositRow,
  DispersalRow,
  DisperseRepository,
  LegRow,
} from "./disperse.repository.ts";

/**
 * Transfers of a chain signed ahead of the one in flight: a pass that takes longer than a
 * block (a thousand chains) still finds each chain's next hops ready for the reconcile.
 */
const SIGNED_AHEAD = 2;

/** The exact values of every transfer (deterministic from the stored amounts and gas price). */
export const planOf = (d: DispersalRow, legs: LegRow[]) =>
  planDispersal({
    destinations: legs.map((leg) => ({
      address: leg.destination as Address,
      amount: BigInt(leg.amount),
    })),
    antiBubblemaps: d.antiBubblemaps,
    gasPrice: BigInt(d.gasPrice),
  });

/**
 * Each chain's next transfers, signed ahead (up to SIGNED_AHEAD past the one in flight),
 * each waiting for the one before it: the transaction manager's reconcile broadcasts each
 * as soon as it sees the one before it mined, so a chain moves a hop a block however long a
 * disperser pass takes. A chain that failed sends its money back.
 */
export function nextSteps(
  d: DispersalRow,
  legs: LegRow[],
  transfers: TransferRow[],
  plan: PlanDispersalReturnType,
): TransferStep[] {
  const fee = TRANSFER_GAS * BigInt(d.gasPrice);
  const byLeg = groupBy(
    transfers.filter((t) => t.leg !== null),
    (t) => String(t.leg),
  );
  const next: TransferStep[] = [];
  for (const leg of legs) {
    const values = plan.legs[leg.index]?.transfers ?? [];
    const route = legRoute(d.receiver, leg);
    const own = byLeg.get(String(leg.index)) ?? [];
    const hops = own.filter((t) => t.kind === "hop").sort((a, b) => (a.step ?? 0) - (b.step ?? 0));
    const last = hops.at(-1);
    // The first failed hop holds the chain's money; the ones after it never got any.
    const failed = hops.find((t) => t.status === "failed");
    if (failed) {
      if (own.some((t) => t.kind === "return") || !d.funder) continue;
      // What the failed transfer's sender still holds: its value, and its gas too when it
      // never ran (dropped); the return pays its own gas out of that.
      const held = returnable(failed, values[failed.step ?? 0] ?? 0n, fee);
      if (held > fee) {
        next.push({
          kind: "return",
          leg: leg.index,
          step: null,
          stepKey: `${leg.index}:return`,
          from: failed.from,
          to: d.funder,
          value: held - fee,
          reason: `Chain ${leg.index + 1} could not deliver to ${leg.destination}: ${failed.error ?? "the transfer failed"}`,
        });
      }
    } else {
      const first = last ? (last.step ?? 0) + 1 : 0;
      const open = hops.filter((t) => t.status === "signed" || t.status === "sent").length;
      const end = Math.min(values.length, first + SIGNED_AHEAD + 1 - open);
      for (let step = first; step < end; step++)
        next.push({
          kind: "hop",
          leg: leg.index,
          step,
          stepKey: `${leg.index}:${step}`,
          from: route[step] as string,
          to: route[step + 1] as string,
          value: values[step] ?? 0n,
          reason: null,
          after:
            step > first
              ? `${leg.index}:${step - 1}`
              : last && last.status !== "confirmed"
                ? last.stepKey
                : undefined,
        });
    }
  }
  return next;
}

/**
 * Deposits not owed to the dispersal go back to their senders, minus the refund's gas; one
 * that came from one of our own wallets goes to that wallet's funder, or is held.
 */
export async function refundSteps(
  {
    repo,
    refundRoute,
    output,
  }: { repo: DisperseRepository; refundRoute: RefundRoute; output: DispersalOutput },
  d: DispersalRow,
  deposits: DepositRow[],
  transfers: TransferRow[],
): Promise<TransferStep[]> {
  const fee = TRANSFER_GAS * BigInt(d.gasPrice);
  const closedUnfunded = d.status === "expired" || d.status === "cancelled";
  const refunded = new Set(transfers.filter((t) => t.kind === "refund").map((t) => t.stepKey));
  const owing = deposits.filter((deposit) => {
    const owed = closedUnfunded ? BigInt(deposit.value) : BigInt(deposit.refundable);
    return owed > fee && !deposit.heldReason && !refunded.has(`refund:${deposit.txHash}`);
  });
  if (owing.length === 0) return [];
  const routes = await refundRoute(owing.map((deposit) => deposit.from));
  const next: TransferStep[] = [];
  for (const deposit of owing) {
    const owed = closedUnfunded ? BigInt(deposit.value) : BigInt(deposit.refundable);
    const route = routes.get(deposit.from.toLowerCase());
    if (route && "hold" in route) {
      await repo.hold(deposit.txHash, route.hold);
      output.emit(
        d.ownerId,
        `${bnb(owed)} from ${deposit.from} is held at ${d.receiver}: ${route.hold}`,
      );
      continue;
    }
    const reason =
      d.status === "expired"
        ? "Payment for a dispersal that expired before it was funded"
        : d.status === "cancelled"
          ? "Payment for a cancelled dispersal"
          : owed === BigInt(deposit.value)
            ? "Payment arrived after the dispersal was already funded or closed"
            : `Paid ${bnb(deposit.value)}, ${bnb(owed)} more than the ${bnb(d.amount)} asked`;
    next.push({
      kind: "refund",
      leg: null,
      step: null,
      stepKey: `refund:${deposit.txHash}`,
      from: d.receiver,
      to: route?.to ?? deposit.from,
      value: owed - fee,
      reason: route ? `${reason}; ${route.note}` : reason,
    });
  }
  return next;
}
