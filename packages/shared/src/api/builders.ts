import { z } from "zod";
import { defineRoute } from "./common.ts";

/** What a bundle the server sent was for. */
export const BUNDLE_KINDS = ["launch", "sell", "autosell", "bump"] as const;
export type BundleKind = (typeof BUNDLE_KINDS)[number];

/**
 * A builder's answer to one bundle: took it; refused it (with its words); never answered in
 * time; or was never asked (the bundle was over its cap or under its gas price floor).
 */
export const BUILDER_ANSWERS = ["accepted", "refused", "silent", "skipped"] as const;
export type BuilderAnswerKind = (typeof BUILDER_ANSWERS)[number];

/** The windows the statistics cover, hours back from now. */
export const BUILDER_STATS_WINDOWS = [24, 168] as const;

const count = z.number().int().min(0);

/** One builder's record over one window. */
export const builderStatsSchema = z.object({
  builder: z.string(),
  /** Bundles sent to it (those it was never asked are `skipped`). */
  sent: count,
  accepted: count,
  refused: count,
  /** No answer in time, or unreachable. */
  silent: count,
  /** Not asked: over its cap or under its gas price floor. */
  skipped: count,
  /** Bundles whose landed block holds this builder's tip. */
  landed: count,
  /** Its share of every landing in the window, 0 to 1 (0 when nothing landed). */
  landingShare: z.number().min(0).max(1),
  /** Blocks from the head at send to the landed block: median and 95th percentile. */
  medianBlocks: z.number().nullable(),
  p95Blocks: z.number().nullable(),
  /** Its most frequent refusals (and silences), in its words, most frequent first. */
  topRefusals: z.array(z.object({ reason: z.string(), count })),
  /**
   * Why bundles it took did not land, as its status service said (48 Club, BlockRazor: asked
   * once per bundle within their quotas), most frequent first.
   */
  notLanded: z.array(z.object({ reason: z.string(), count })),
});
export type BuilderStats = z.infer<typeof builderStatsSchema>;

export const builderStatsWindowSchema = z.object({
  hours: z.number().int().min(1),
  /** Bundles sent in the window (each counted once, however many builders it went to). */
  bundles: count,
  /** Of those, the ones that landed. */
  landed: count,
  builders: z.array(builderStatsSchema),
});
export type BuilderStatsWindow = z.infer<typeof builderStatsWindowSchema>;

export const builderStatsResponseSchema = z.object({
  success: z.literal(true),
  /** Over 24 hours, then over 7 days. */
  windows: z.array(builderStatsWindowSchema),
});
export type BuilderStatsResponse = z.infer<typeof builderStatsResponseSchema>;

/** Admins: every bundle the server sent (launches, sells, auto-sell waves, bumps), per builder. */
export const adminBuilderStatsRoute = defineRoute({
  method: "GET",
  path: "/api/admin/builders/stats",
  access: "admin",
  body: undefined,
  response: builderStatsResponseSchema,
});

/** The caller's own bundles, per builder: what the wallet manager shows. */
export const builderStatsRoute = defineRoute({
  method: "GET",
  path: "/api/bundle/builders/stats",
  access: "user",
  body: undefined,
  response: builderStatsResponseSchema,
});
