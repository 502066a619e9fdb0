import type { DraftSummary } from "@bundler/shared";

/**
 * What the execute confirmation and the Bundle Terminal read of a draft: its id, status, name and
 * ticker. The drafts list's summary, the whole draft and the launch page's form all give it.
 */
export type LaunchTarget = Pick<DraftSummary, "_id" | "status"> & {
  tokenInfo: Pick<DraftSummary["tokenInfo"], "name" | "symbol">;
};
