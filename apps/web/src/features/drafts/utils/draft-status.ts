import type { DraftStatus } from "@bundler/shared";

/** The card's status label (SPEC §4). */
export const DRAFT_STATUS_LABELS: Record<DraftStatus, string> = {
  draft: "Draft",
  pending_payment: "Pending",
  paid: "Paid",
  executing: "Launching",
  executed: "Launched",
};

export const DRAFTS_PER_PAGE = 9;
