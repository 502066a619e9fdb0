import type { DispersalStatus, DispersalSummary } from "@bundler/shared";
import { useState } from "react";
import { LoadProblem } from "../../../components/ui/load-problem.tsx";
import { Pagination } from "../../../components/ui/pagination.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { failureText } from "../../../lib/api-error.ts";
import { formatBnb } from "../../../lib/bnb.ts";
import { formatDateTime } from "../../../lib/format-date.ts";
import { useDispersals } from "../api/get-dispersals.ts";

const STATUS_LABELS: Record<DispersalStatus, string> = {
  pending: "Awaiting payment",
  sending: "Sending",
  processing: "Processing",
  completed: "Completed",
  partial: "Partially completed",
  failed: "Failed",
  expired: "Expired",
  cancelled: "Cancelled",
};

const STATUS_TONES: Partial<Record<DispersalStatus, string>> = {
  completed: "text-ok",
  partial: "text-orange-300",
  failed: "text-bad",
};

function HistoryRow({ dispersal }: { dispersal: DispersalSummary }) {
  return (
    <tr className="border-t border-line" data-testid="dispersal-history-row">
      <td className="py-1.5 pr-3 text-dim">{formatDateTime(dispersal.createdAt)}</td>
      <td className={`py-1.5 pr-3 ${STATUS_TONES[dispersal.status] ?? "text-accent"}`}>
        {STATUS_LABELS[dispersal.status]}
      </td>
      <td className="py-1.5 pr-3 text-right tabular-nums text-fg">{dispersal.walletCount}</td>
      <td className="py-1.5 text-right tabular-nums text-fg" title={`${dispersal.total} BNB`}>
        {formatBnb(dispersal.total)} BNB
      </td>
    </tr>
  );
}

/** "Past dispersals": every dispersal of the user, newest first, 10 a page. */
export function DispersalHistory() {
  const [page, setPage] = useState(1);
  const history = useDispersals(page);
  const list = history.data;
  const pageCount = list ? Math.max(1, Math.ceil(list.total / list.pageSize)) : 1;

  return (
    <Section title="Past dispersals">
      {history.isPending && (
        <p className="flex items-center gap-2 text-xs text-dim" role="status">
          <Spinner /> loading dispersals...
        </p>
      )}
      {history.isError && !list && (
        <LoadProblem
          message={failureText(history.error, "Failed to load your dispersals")}
          onRetry={() => void history.refetch()}
        />
      )}
      {list && list.total === 0 && (
        <p className="text-xs text-faint" data-testid="dispersal-history-empty">
          No dispersals yet.
        </p>
      )}
      {list && list.dispersals.length > 0 && (
        <>
          <div className="overflow-x-auto">
            <table
              className={`w-full text-left text-xs ${history.isPlaceholderData ? "opacity-60" : ""}`}
              aria-label="Past dispersals"
            >
              <thead className="text-faint">
                <tr>
                  <th className="py-1 pr-3 font-normal">Date</th>
                  <th className="py-1 pr-3 font-normal">Status</th>
                  <th className="py-1 pr-3 text-right font-normal">Wallets</th>
                  <th className="py-1 text-right font-normal">Total</th>
                </tr>
              </thead>
              <tbody>
                {list.dispersals.map((dispersal) => (
                  <HistoryRow key={dispersal.dispersalId} dispersal={dispersal} />
                ))}
              </tbody>
            </table>
          </div>
          <Pagination
            page={list.page}
            pageCount={pageCount}
            onPageChange={setPage}
            label="Dispersal pages"
          />
        </>
      )}
    </Section>
  );
}
