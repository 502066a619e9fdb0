import { sql } from "drizzle-orm";
import { type JobEngine, perBlockQueue, type QueueSpec } from "../../lib/jobs.ts";
import type { BuilderLandings } from "./builder-landings.ts";
import type { BuilderStatuses } from "./builder-statuses.ts";
import { builderSendsDue, builderStatusesDue } from "./builders.repository.ts";

/**
 * Each block while a bundle's builders wait for the chain's word: which variant landed, and
 * which windows passed without one (see BuilderLandings). Outcomes are only ever set once.
 * Then, for bundles a builder took that did not land, its status service's word
 * (BuilderStatuses), once a bundle is old enough for the service to know.
 */
export const BUILDER_LANDINGS: QueueSpec = perBlockQueue("builder-landings");

export const workBuilderJobs = async (
  jobs: JobEngine,
  landings: BuilderLandings,
  statuses: BuilderStatuses,
): Promise<void> => {
  const statusesDue = builderStatusesDue(statuses.builders(), statuses.delayMs);
  await jobs.onEachBlock(
    BUILDER_LANDINGS,
    async () => {
      await landings.pass();
      await statuses.pass();
    },
    () => sql`(${builderSendsDue()}) or (${statusesDue()})`,
  );
};
