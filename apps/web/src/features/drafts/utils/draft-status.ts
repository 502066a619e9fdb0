import type { DraftStatus, DraftSummary } from "@bundler/shared";
import type { LaunchTarget } from "../../../components/launch/launch-target.ts";

/** The card's status label (SPEC §4). */
export const DRAFT_STATUS_LABELS: Record<DraftStatus, string> = {
  draft: "Draft",
  pending_payment: "Pending",
  paid: "Paid",
  executing: "Launching",
  executed: "Launched",
};

/**
 * What the payment dialog reads of a draft, on top of what the launch dialogs read: the list's
 * summary and the whole draft (`GET /api/draft/:id`) both fit.
 */
export type DraftHeader = LaunchTarget &
  Pick<DraftSummary, "paymentAddress" | "paymentAmount" | "paymentExpiresAt" | "launchProblem">;
