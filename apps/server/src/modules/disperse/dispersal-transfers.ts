import type { TxRow, TxSummary } from "../transactions/transactions.repository.ts";
import type { TxPurpose } from "../transactions/tx-manager.ts";

/**
 * A dispersal's transfers are transactions of the transaction manager, keyed
 * `dispersal:{dispersalId}:{stepKey}`: `{leg}:{step}` for a hop along a chain (step 0 leaves the
 * receiver, the last step reaches the destination), `{leg}:return` for a failed chain's money
 * going back to the funder, `refund:{depositHash}` for a deposit not owed. This is the
 * dispersal's view of them.
 */
export type TransferKind = "hop" | "return" | "refund";

export interface TransferRow {
  id: string;
  dispersalId: string;
  kind: TransferKind;
  leg: number | null;
  step: number | null;
  stepKey: string;
  from: string;
  to: string;
  value: string;
  txHash: string;
  reason: string | null;
  /** confirmed = mined; failed = reverted, replaced or dropped (see `txStatus` and `error`). */
  status: "signed" | "sent" | "confirmed" | "failed";
  txStatus: TxRow["status"];
  error: string | null;
  /** The failed transfer paid its gas (it was mined, reverted); a dropped one paid nothing. */
  paidGas: boolean;
  blockNumber: bigint | null;
}

/** The transfer a dispersal step is about to make, before it is signed. */
export interface TransferStep {
  kind: TransferKind;
  leg: number | null;
  step: number | null;
  stepKey: string;
  from: string;
  to: string;
  value: bigint;
  reason: string | null;
  /** The step key of the transfer it waits for (signed ahead of it, see `TxIntent.after`). */
  after?: string | undefined;
}

export const transferKey = (dispersalId: string, stepKey: string) =>
  `dispersal:${dispersalId}:${stepKey}`;

export const purposeOf = (kind: TransferKind): TxPurpose => `dispersal-${kind}`;

const STATUS: Record<TxRow["status"], TransferRow["status"]> = {
  signed: "signed",
  sent: "sent",
  mined: "confirmed",
  reverted: "failed",
  replaced: "failed",
  dropped: "failed",
};

/** A transaction of the manager as a dispersal transfer; null when it is not one. */
export const toTransfer = (row: TxSummary): TransferRow | null => {
  const match = /^dispersal:([^:]+):(.+)$/.exec(row.key);
  if (!match) return null;
  const [, dispersalId, stepKey] = match as unknown as [string, string, string];
  const [first, second] = stepKey.split(":");
  const kind: TransferKind = first === "refund" ? "refund" : second === "return" ? "return" : "hop";
  return {
    id: row.id,
    dispersalId,
    kind,
    leg: kind === "refund" ? null : Number(first),
    step: kind === "hop" ? Number(second) : null,
    stepKey,
    from: row.from,
    to: row.to ?? "",
    value: row.value,
    txHash: row.txHash,
    reason: row.reason,
    status: STATUS[row.status],
    txStatus: row.status,
    error: row.error,
    paidGas: row.status === "mined" || row.status === "reverted",
    blockNumber: row.blockNumber,
  };
};

export const toTransfers = (rows: TxSummary[]): TransferRow[] =>
  rows.map(toTransfer).filter((t): t is TransferRow => t !== null);
