import { TxHash } from "../../../components/ui/tx-hash.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { shortAddress } from "../../../lib/short-address.ts";
import { tokensShown } from "../utils/token-amount.ts";
import type { ProgressRow, ProgressStatus } from "../utils/tx-progress.ts";

const STATUS_TONES: Record<ProgressStatus, string> = {
  pending: "text-accent",
  success: "text-ok",
  failed: "text-bad",
  error: "text-bad",
};

/** What the transaction does, amounts to 4 decimals. */
const actionOf = (row: ProgressRow): string =>
  row.kind === "approve"
    ? "approve"
    : row.kind === "transfer"
      ? `send ${formatBnb(row.amount)} BNB`
      : `sell ${tokensShown(row.amount)}`;

const ROUTE_TEXT = { bundle: "private bundle", public: "public mempool" } as const;

/**
 * One transaction: wallet, what it does, what a landed sale fetched and its floor, how it went
 * out, its hash (explorer link), its block, status and why it failed.
 */
export function TxProgressRow({
  row,
  explorerUrl,
}: {
  row: ProgressRow;
  explorerUrl: string | null;
}) {
  return (
    <li
      data-testid="tx-row"
      data-status={row.status}
      className="flex flex-col gap-1 rounded-sm border border-line bg-ink px-3 py-2 text-xs"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="text-dim" title={row.from}>
          {shortAddress(row.from)}
        </span>
        <span className="text-fg" data-testid="tx-action">
          {actionOf(row)}
        </span>
        {row.sale && (
          <span className="text-ok" data-testid="tx-fetched" title="BNB received, after the fee">
            fetched {formatBnb(row.sale.bnb)} BNB
          </span>
        )}
        {row.minOut && (
          <span
            className="text-dim"
            data-testid="tx-floor"
            title="The least this sale pays the wallet, after the launchpad's fee: it reverts rather than pay less"
          >
            gets at least {formatBnb(row.minOut)} BNB
          </span>
        )}
        {row.route && (
          <span className="text-faint" data-testid="tx-route" data-route={row.route}>
            via {ROUTE_TEXT[row.route]}
          </span>
        )}
        {row.hash ? (
          <TxHash hash={row.hash} explorerUrl={explorerUrl} className="text-accent hover:underline">
            {shortAddress(row.hash)}
          </TxHash>
        ) : (
          <span className="text-faint">not sent</span>
        )}
        {row.blockNumber && (
          <span className="text-faint" data-testid="tx-block">
            block {row.blockNumber}
          </span>
        )}
        <span className={`ml-auto ${STATUS_TONES[row.status]}`} data-testid="tx-status">
          {row.status}
        </span>
      </div>
      {row.reason && (row.status === "failed" || row.status === "error") && (
        <span className="break-words text-bad" data-testid="tx-reason">
          {row.reason}
        </span>
      )}
    </li>
  );
}
