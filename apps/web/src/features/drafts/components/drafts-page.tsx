import type { DraftSummary } from "@bundler/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import toast from "react-hot-toast";
import { Link } from "react-router";
import { LaunchExecution } from "../../../components/launch/launch-execution.tsx";
import {
  TERMINAL_POLL_MS,
  useLaunchExecution,
} from "../../../components/launch/use-launch-execution.ts";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { CardSkeletons } from "../../../components/ui/card-skeletons.tsx";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { LoadProblem } from "../../../components/ui/load-problem.tsx";
import { Pagination } from "../../../components/ui/pagination.tsx";
import { useNow } from "../../../hooks/use-now.ts";
import { usePageParam, useServerPageRange } from "../../../hooks/use-page-param.ts";
import { usePublicConfig } from "../../../lib/public-config.ts";
import { useAuth } from "../../auth/hooks/use-auth.ts";
import { useCancelPayment } from "../api/cancel-payment.ts";
import { useDeleteDraft } from "../api/delete-draft.ts";
import { executeDraft } from "../api/execute-draft.ts";
import { draftsListKey, useDrafts } from "../api/get-drafts.ts";
import { usePayParam } from "../hooks/use-pay-param.ts";
import type { DraftHeader } from "../utils/draft-status.ts";
import { DraftCard } from "./draft-card.tsx";
import { PaymentDialog } from "./payment-dialog.tsx";

type Confirmation = { kind: "delete" | "cancel"; draft: DraftSummary };

export function DraftsPage() {
  const queryClient = useQueryClient();
  const { authKey } = useAuth();
  const explorerUrl = usePublicConfig().data?.explorerUrl ?? null;
  const [page, setPage] = usePageParam();
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: draftsListKey }),
    [queryClient],
  );
  const execution = useLaunchExecution({ execute: executeDraft, onSettled: () => void refresh() });
  const drafts = useDrafts({ page, pollMs: execution.watching ? TERMINAL_POLL_MS : false });
  const [confirm, setConfirm] = useState<Confirmation | null>(null);
  const [payDraft, setPayDraft] = useState<DraftHeader | null>(null);
  const now = useNow(60_000);

  const deleteDraft = useDeleteDraft();
  const cancelPayment = useCancelPayment();

  const list = drafts.data;
  usePayParam(list?.drafts, drafts.isFetched, setPayDraft);

  const failedAt = drafts.isError ? drafts.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) toast.error("Failed to fetch drafts", { id: "drafts-fetch" });
  }, [failedAt]);

  const range = useServerPageRange(
    list,
    list?.drafts.length ?? 0,
    drafts.isPlaceholderData,
    setPage,
  );

  const runConfirmed = ({ kind, draft }: Confirmation) => {
    const done = () => setConfirm(null);
    if (kind === "delete") {
      deleteDraft.mutate(draft._id, {
        onSuccess: () => toast.success("Draft deleted successfully"),
        onError: () => toast.error("Failed to delete draft"),
        onSettled: done,
      });
    } else {
      cancelPayment.mutate(draft._id, {
        onSuccess: () => toast.success("Payment cancelled"),
        onError: () => toast.error("Failed to cancel payment"),
        onSettled: done,
      });
    }
  };

  const confirmMessage = (kind: Confirmation["kind"]) =>
    kind === "delete"
      ? "Are you sure you want to delete this draft?"
      : "Are you sure you want to cancel this payment?";

  return (
    <ContentLayout title="My Drafts">
      {drafts.isPending && <CardSkeletons label="loading drafts" testId="draft-skeleton" tall />}

      {drafts.isError && !drafts.data && (
        <LoadProblem message="Failed to fetch drafts" onRetry={() => void drafts.refetch()} />
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
                onExecute={execution.ask}
                onPay={setPayDraft}
                onWatch={execution.watch}
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

      {confirm && (
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

      <LaunchExecution
        execution={execution}
        authKey={authKey}
        explorerUrl={explorerUrl}
        onSucceeded={() => void refresh()}
        onClosed={() => void refresh()}
      />
    </ContentLayout>
  );
}
