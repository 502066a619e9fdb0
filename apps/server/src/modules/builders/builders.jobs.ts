import { type JobEngine, perBlockQueue, type QueueSpec } from "../../lib/jobs.ts";
import type { BuilderLandings } from "./builder-landings.ts";
import { builderSendsDue } from "./builders.repository.ts";

/**
 * Each block while a bundle's builders wait for the chain's word: which variant landed, and
 * which windows passed without one (see BuilderLandings). Outcomes are only ever set once.
 */
export const BUILDER_LANDINGS: QueueSpec = perBlockQueue("builder-landings");

export const workBuilderJobs = async (
  jobs: JobEngine,
  landings: BuilderLandings,
): Promise<void> => {
  await jobs.onEachBlock(BUILDER_LANDINGS, () => landings.pass(), builderSendsDue);
};
