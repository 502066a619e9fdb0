import type { DraftSummary } from "@bundler/shared";
import toast from "react-hot-toast";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { RefundList } from "../../../components/ui/refund-list.tsx";
import { apiUrl } from "../../../lib/api-client.ts";
import { DRAFT_STATUS_LABELS } from "../utils/draft-status.ts";
import { getExpiryBadge } from "../utils/expiry-badge.ts";

export interface DraftCardActions {
  onDelete: (draft: DraftSummary) => void;
  onPay: (draft: DraftSummary) => void;
  onCancelPayment: (draft: DraftSummary) => void;
  onExecute: (draft: DraftSummary) => void;
  /** Opens the terminal on a launch already running. */
  onWatch: (draft: DraftSummary) => void;
}

export interface DraftCardProps extends DraftCardActions {
  draft: DraftSummary;
  now: number;
  explorerUrl: string | null;
}

const STATUS_TONES: Record<DraftSummary["status"], string> = {
  draft: "border-line-strong text-dim",
  pending_payment: "border-accent/60 text-accent",
  paid: "border-ok/60 text-ok",
  executing: "border-accent/60 text-accent animate-pulse",
  executed: "border-ok/60 text-ok",
};

const dateFormat = new Intl.DateTimeFormat(undefined, {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

const formatDate = (iso: string) => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : dateFormat.format(time);
};

function DraftImage({ draft }: { draft: DraftSummary }) {
  const { imageUrl, symbol } = draft.tokenInfo;
  if (imageUrl) {
    return (
      <img
        src={apiUrl(imageUrl)}
        alt=""
        loading="lazy"
        data-testid="draft-image"
        className="size-14 shrink-0 rounded-sm object-cover"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      data-testid="draft-image-placeholder"
      className="flex size-14 shrink-0 items-center justify-center rounded-sm border border-line-strong bg-raised text-lg font-semibold text-faint"
    >
      {(symbol || "?").slice(0, 2).toUpperCase()}
    </span>
  );
}

/** Statuses whose next step (pay, resume paying, launch) needs a launch-ready draft. */
const NEEDS_READY: ReadonlySet<DraftSummary["status"]> = new Set([
  "draft",
  "pending_payment",
  "paid",
]);

export function DraftCard({ draft, now, explorerUrl, ...actions }: DraftCardProps) {
  const { name, symbol } = draft.tokenInfo;
  const badge = getExpiryBadge(draft.expiresAt, now);
  const problem = NEEDS_READY.has(draft.status) ? draft.launchProblem : null;
  /** Pay and launch ask for a ready draft: say what is missing instead of asking the server. */
  const whenReady = (action: (d: DraftSummary) => void) => () => {
    if (problem) toast.error(problem, { id: `launch-problem:${draft._id}` });
    else action(draft);
  };
  const editLink = (
    <Link
      to={`/create?draft=${encodeURIComponent(draft._id)}`}
      className="text-dim hover:text-accent"
    >
      [edit]
    </Link>
  );

  return (
    <article
      data-testid="draft-card"
      data-draft-id={draft._id}
      data-status={draft.status}
      aria-label={`${name} (${symbol})`}
      className="flex flex-col gap-4 rounded-md border border-line bg-panel p-4"
    >
      <div className="flex items-start gap-3">
        <DraftImage draft={draft} />
        <div className="min-w-0 flex-1">
          <h2 className="truncate font-semibold text-fg">{name}</h2>
          <p className="text-dim">${symbol}</p>
        </div>
        <span
          data-testid="draft-status"
          className={`shrink-0 rounded-sm border px-2 py-0.5 text-xs ${STATUS_TONES[draft.status]}`}
        >
          {DRAFT_STATUS_LABELS[draft.status]}
        </span>
      </div>

      <div className="flex flex-wrap items-center gap-2 text-xs text-faint">
        <span>updated {formatDate(draft.updatedAt)}</span>
        {badge && (
          <span
            data-testid="expiry-badge"
            className={`rounded-sm border px-1.5 py-0.5 ${
              badge.tone === "red" ? "border-bad/60 text-bad" : "border-accent/60 text-accent"
            }`}
          >
            {badge.text}
          </span>
        )}
      </div>

      {draft.status === "executed" && draft.launch && (
        <p className="break-all text-xs text-dim" data-testid="draft-token-address">
          token{" "}
          {explorerUrl ? (
            <a
              href={`${explorerUrl.replace(/\/+$/, "")}/address/${draft.launch.tokenAddress}`}
              target="_blank"
              rel="noreferrer"
              className="text-accent hover:underline"
            >
              {draft.launch.tokenAddress}
            </a>
          ) : (
            <span className="text-fg">{draft.launch.tokenAddress}</span>
          )}
        </p>
      )}

      {problem && (
        <p className="text-xs text-bad" data-testid="draft-launch-problem">
          Not ready to launch: {problem}
        </p>
      )}

      <RefundList
        title="Refunds"
        refunds={draft.refunds}
        explorerUrl={explorerUrl}
        data-testid="draft-refunds"
      />

      <div className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-line pt-3">
        {draft.status === "draft" && (
          <>
            {editLink}
            <Button variant="bracket" onClick={() => actions.onDelete(draft)}>
              [delete]
            </Button>
            <Button className="ml-auto px-3 py-1" onClick={whenReady(actions.onPay)}>
              Pay Now
            </Button>
          </>
        )}
        {draft.status === "pending_payment" && (
          <>
            <Button variant="bracket" onClick={() => actions.onCancelPayment(draft)}>
              [cancel payment]
            </Button>
            <Button className="ml-auto px-3 py-1" onClick={whenReady(actions.onPay)}>
              Resume Payment
            </Button>
          </>
        )}
        {draft.status === "paid" && (
          <>
            {editLink}
            <Button className="ml-auto px-3 py-1" onClick={whenReady(actions.onExecute)}>
              Execute Launch
            </Button>
          </>
        )}
        {draft.status === "executing" && (
          <>
            <span className="text-accent">Launch in progress...</span>
            <Button variant="bracket" className="ml-auto" onClick={() => actions.onWatch(draft)}>
              [open terminal]
            </Button>
          </>
        )}
        {draft.status === "executed" && (
          <>
            <span className="text-ok">Launch completed</span>
            <Link
              to={`/create?draft=${encodeURIComponent(draft._id)}`}
              className="ml-auto text-dim hover:text-accent"
            >
              [view launch]
            </Link>
          </>
        )}
      </div>
    </article>
  );
}
