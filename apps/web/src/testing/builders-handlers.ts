import type { BuilderStatsResponse, BuilderStatsWindow } from "@bundler/shared";
import { HttpResponse, http } from "msw";

/** Two builders over 24 hours and 7 days: one lands most, the other refuses in words. */
export const builderStatsFixture = (): BuilderStatsWindow[] => [
  {
    hours: 24,
    bundles: 6,
    landed: 4,
    builders: [
      {
        builder: "48club",
        sent: 6,
        accepted: 3,
        refused: 3,
        silent: 0,
        skipped: 0,
        landed: 3,
        landingShare: 0.75,
        medianBlocks: 2,
        p95Blocks: 2.9,
        topRefusals: [
          { reason: "bundle rejected: busy", count: 2 },
          { reason: "tip too low", count: 1 },
        ],
        notLanded: [],
      },
      {
        builder: "blockrazor",
        sent: 5,
        accepted: 2,
        refused: 2,
        silent: 1,
        skipped: 1,
        landed: 1,
        landingShare: 0.25,
        medianBlocks: 4,
        p95Blocks: 4,
        topRefusals: [{ reason: "no answer in 15000 ms", count: 1 }],
        notLanded: [{ reason: "bundle gas price lower than 0.05 gwei", count: 1 }],
      },
    ],
  },
  { hours: 168, bundles: 0, landed: 0, builders: [] },
];

/** `GET path` (the admin's or a user's builder statistics) answering `windows`. */
export const builderStatsHandler = (path: string, windows: BuilderStatsWindow[]) =>
  http.get(path, () =>
    HttpResponse.json({ success: true, windows } satisfies BuilderStatsResponse),
  );
