import type { DraftSummary } from "@bundler/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import toast from "react-hot-toast";
import { Link } from "react-router";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { Pagination } from "../../../components/ui/pagination.tsx";
import { useNow } from "../../../hooks/use-now.ts";
import { usePageParam } from "../../../hooks/use-page-param.ts";
import { pageRange } from "../../../lib/pagination.ts";
import { usePublicConfig } from "../../../lib/public-config.ts";
import { useAuth } from "../../auth/hooks/use-auth.ts";
import { useCancelPayment } from "../api/cancel-payment.ts";
import { useDeleteDraft } from "../api/delete-draft.ts";
import { failureText } from "../api/draft-request.ts";
import { useExecuteDraft } from "../api/execute-draft.ts";
import { useLiveDraft } from "../api/get-draft.ts";
import { draftsListKey, useDrafts } from "../api/get-drafts.ts";
import { usePayParam } from "../hooks/use-pay-param.ts";
import type { DraftHeader } from "../utils/draft-status.ts";
import { BundleTerminal } from "./bundle-terminal.tsx";
import { DraftCard } from "./draft-card.tsx";
import { DraftSkeletons } from "./draft-skeletons.tsx";
import { ExecuteConfirmDialog } from "./execute-confirm-dialog.tsx";
import { PaymentDialog } from "./payment-dialog.tsx";

/** While the terminal is open the list is polled, so the draft's status backs up the log. */
const TERMINAL_POLL_MS = 5000;

type Confirmation = { kind: "delete" | "cancel" | "execute"; draft: DraftSummary };

export function DraftsPage() {
  const queryClient = useQueryClient();
  const { authKey } = useAuth();
  const explorerUrl = usePublicConfig().data?.explorerUrl ?? null;
  const [page, setPage] = usePageParam();
  const [terminalDraft, setTerminalDraft] = useState<DraftHeader | null>(null);
  const drafts = useDrafts({ page, pollMs: terminalDraft ? TERMINAL_POLL_MS : false });
  // The launching draft moves to the top of the list: the terminal follows it by id.
  const liveDraft = useLiveDraft(terminalDraft?._id ?? null, TERMINAL_POLL_MS);
  const [confirm, setConfirm] = useState<Confirmation | null>(null);
  const [payDraft, setPayDraft] = useState<DraftHeader | null>(null);
  const now = useNow(60_000);

  const deleteDraft = useDeleteDraft();
  const cancelPayment = useCancelPayment();
  const executeDraft = useExecuteDraft();
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: draftsListKey }),
    [queryClient],
  );

  const list = drafts.data;
  usePayParam(list?.drafts, drafts.isFetched, setPayDraft);

  const failedAt = drafts.isError ? drafts.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) toast.error("Failed to fetch drafts", { id: "drafts-fetch" });
  }, [failedAt]);

  const range = list
    ? pageRange({
        page: list.page,
        pageSize: list.pageSize,
        total: list.total,
        shown: list.drafts.length,
      })
    : null;
  // Past the last page (its last draft deleted, an old link): show the last real page.
  const pastEnd = list && !drafts.isPlaceholderData && list.drafts.length === 0 && list.page > 1;
  const lastPage = range?.pageCount ?? 1;
  useEffect(() => {
    if (pastEnd) setPage(lastPage, { replace: true });
  }, [pastEnd, lastPage, setPage]);

  const liveTerminalDraft =
    terminalDraft &&
    (liveDraft.data ?? list?.drafts.find((d) => d._id === terminalDraft._id) ?? terminalDraft);

  const runConfirmed = ({ kind, draft }: Confirmation) => {
    const done = () => setConfirm(null);
    if (kind === "delete") {
      deleteDraft.mutate(draft._id, {
        onSuccess: () => toast.success("Draft deleted successfully"),
        onError: () => toast.error("Failed to delete draft"),
        onSettled: done,
      });
    } else if (kind === "cancel") {
      cancelPayment.mutate(draft._id, {
        onSuccess: () => toast.success("Payment cancelled"),
        onError: () => toast.error("Failed to cancel payment"),
        onSettled: done,
      });
    } else {
      done();
      // Open first, so no line the job sends before the answer arrives is missed.
      setTerminalDraft(draft);
      executeDraft.mutate(draft._id, {
        onError: (error) => {
          toast.error(failureText(error, "Failed to execute launch"));
          setTerminalDraft(null);
        },
      });
    }
  };

  const confirmMessage = (kind: "delete" | "cancel") =>
    kind === "delete"
      ? "Are you sure you want to delete this draft?"
      : "Are you sure you want to cancel this payment?";

  return (
    <ContentLayout title="My Drafts">
      {drafts.isPending && <DraftSkeletons />}

      {drafts.isError && !drafts.data && (
        <div className="flex flex-col items-start gap-3" role="alert">
          <p className="text-bad">Failed to fetch drafts</p>
          <Button variant="bracket" onClick={() => void drafts.refetch()}>
            [retry]
          </Button>
        </div>
      )}

      {list && list.total === 0 && (
        <div
          className="flex flex-col items-center gap-4 py-16 text-center"
          data-testid="drafts-empty"
        >
          <p className="text-dim">No drafts yet.</p>
          <Link to="/" className="text-accent hover:underline">
            [create your first launch]
          </Link>
        </div>
      )}

      {list && range && list.drafts.length > 0 && (
        <>
          <p className="mb-4 text-xs text-faint">
            Showing {range.from}-{range.to} of {list.total}
          </p>
          <div
            className={`grid gap-4 sm:grid-cols-2 lg:grid-cols-3 ${drafts.isPlaceholderData ? "opacity-60" : ""}`}
            aria-busy={drafts.isPlaceholderData}
            data-testid="drafts-grid"
          >
            {list.drafts.map((draft) => (
              <DraftCard
                key={draft._id}
                draft={draft}
                now={now}
                explorerUrl={explorerUrl}
                onDelete={(d) => setConfirm({ kind: "delete", draft: d })}
                onCancelPayment={(d) => setConfirm({ kind: "cancel", draft: d })}
                onExecute={(d) => setConfirm({ kind: "execute", draft: d })}
                onPay={setPayDraft}
                onWatch={setTerminalDraft}
              />
            ))}
          </div>
          <Pagination
            page={list.page}
            pageCount={range.pageCount}
            onPageChange={(next) => setPage(next)}
            label="Drafts pages"
          />
        </>
      )}

      {confirm?.kind === "execute" && (
        <ExecuteConfirmDialog
          draft={confirm.draft}
          onConfirm={() => runConfirmed(confirm)}
          onCancel={() => setConfirm(null)}
        />
      )}
      {confirm && confirm.kind !== "execute" && (
        <ConfirmDialog
          message={confirmMessage(confirm.kind)}
          busy={deleteDraft.isPending || cancelPayment.isPending}
          onConfirm={() => runConfirmed(confirm)}
          onCancel={() => setConfirm(null)}
        />
      )}

      {payDraft && (
        <PaymentDialog
          key={payDraft._id}
          draft={payDraft}
          onPaid={() => {
            setPayDraft(null);
            void refresh();
          }}
          onClose={() => {
            setPayDraft(null);
            void refresh();
          }}
        />
      )}

      {liveTerminalDraft && (
        <BundleTerminal
          key={liveTerminalDraft._id}
          draft={liveTerminalDraft}
          authKey={authKey}
          explorerUrl={explorerUrl}
          onDismiss={() => {
            setTerminalDraft(null);
            void refresh();
          }}
          onSucceeded={() => void refresh()}
          onFailed={() => {
            setTerminalDraft(null);
            void refresh();
          }}
        />
      )}
    </ContentLayout>
  );
}
