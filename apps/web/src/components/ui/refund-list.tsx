import { formatBnb } from "../../lib/bnb.ts";
import { shortAddress } from "../../lib/short-address.ts";
import { TxHash } from "./tx-hash.tsx";

export interface RefundEntry {
  /** A label in front of the amount, e.g. "Refund" or "Return". */
  label?: string;
  amount: string;
  to: string;
  status: string;
  txHash?: string | null;
  reason: string;
}

/** BNB the server sent back, each with where it went, its transaction and why. */
export function RefundList({
  title,
  refunds,
  explorerUrl,
  "data-testid": testId,
}: {
  title: string;
  refunds: readonly RefundEntry[];
  explorerUrl: string | null;
  "data-testid"?: string;
}) {
  if (refunds.length === 0) return null;
  return (
    <div className="flex flex-col gap-1 text-xs" data-testid={testId}>
      <span className="text-dim">{title}</span>
      <ul className="flex max-h-32 flex-col gap-1 overflow-y-auto">
        {refunds.map((refund) => (
          <li
            key={refund.txHash || `${refund.label}:${refund.to}:${refund.amount}:${refund.reason}`}
            className="flex flex-wrap gap-x-2 rounded-sm border border-line bg-ink px-2 py-1"
          >
            {refund.label && <span className="text-faint">{refund.label}</span>}
            <span className="text-fg" title={`${refund.amount} BNB`}>
              {formatBnb(refund.amount)} BNB
            </span>
            <span className="text-dim" title={refund.to}>
              to {shortAddress(refund.to)}
            </span>
            <span className={refund.status === "failed" ? "text-bad" : "text-dim"}>
              {refund.status}
            </span>
            {refund.txHash && (
              <TxHash
                hash={refund.txHash}
                explorerUrl={explorerUrl}
                className="text-accent hover:underline"
              >
                tx {shortAddress(refund.txHash)}
              </TxHash>
            )}
            {refund.reason && <span className="w-full text-faint">{refund.reason}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
