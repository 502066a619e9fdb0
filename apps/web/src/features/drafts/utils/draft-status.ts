import type { DraftStatus, DraftSummary } from "@bundler/shared";

/** The card's status label (SPEC §4). */
export const DRAFT_STATUS_LABELS: Record<DraftStatus, string> = {
  draft: "Draft",
  pending_payment: "Pending",
  paid: "Paid",
  executing: "Launching",
  executed: "Launched",
};

/**
 * What the dialogs and the terminal read of a draft: the list's summary and the whole draft
 * (`GET /api/draft/:id`) both fit.
 */
export type DraftHeader = Pick<
  DraftSummary,
  "_id" | "status" | "paymentAddress" | "paymentAmount" | "paymentExpiresAt" | "launchProblem"
> & { tokenInfo: Pick<DraftSummary["tokenInfo"], "name" | "symbol"> };
