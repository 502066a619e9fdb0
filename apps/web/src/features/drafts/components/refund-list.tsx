import type { Draft } from "@bundler/shared";
import toast from "react-hot-toast";
import { copyText } from "../../../lib/clipboard.ts";

const short = (value: string) => `${value.slice(0, 6)}...${value.slice(-4)}`;

/** Payments the server sent back (late, cancelled or too large), as recorded on the draft. */
export function RefundList({
  refunds,
  explorerUrl,
}: {
  refunds: Draft["refunds"];
  explorerUrl: string | null;
}) {
  if (refunds.length === 0) return null;
  return (
    <div className="flex flex-col gap-1 text-xs" data-testid="draft-refunds">
      <span className="text-dim">Refunds</span>
      <ul className="flex flex-col gap-1">
        {refunds.map((refund) => (
          <li
            key={refund.txHash ?? `${refund.to}:${refund.amount}:${refund.reason}`}
            className="flex flex-wrap gap-x-2 rounded-sm border border-line bg-ink px-2 py-1"
          >
            <span className="text-fg">{refund.amount} BNB</span>
            <span className="text-faint">to {short(refund.to)}</span>
            <span className={refund.status === "failed" ? "text-bad" : "text-dim"}>
              {refund.status}
            </span>
            {refund.txHash &&
              (explorerUrl ? (
                <a
                  href={`${explorerUrl.replace(/\/+$/, "")}/tx/${refund.txHash}`}
                  target="_blank"
                  rel="noreferrer"
                  className="text-accent hover:underline"
                >
                  tx {short(refund.txHash)}
                </a>
              ) : (
                <button
                  type="button"
                  className="text-accent hover:underline"
                  aria-label="Copy refund transaction hash"
                  onClick={async () => {
                    if (refund.txHash && (await copyText(refund.txHash))) {
                      toast.success("Copied to clipboard!");
                    }
                  }}
                >
                  tx {short(refund.txHash)}
                </button>
              ))}
            <span className="w-full text-faint">{refund.reason}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
