import { type JobEngine, perBlockQueue, type QueueSpec } from "../../lib/jobs.ts";
import type { BumperEngine } from "./bumper.engine.ts";
import { bumperDue } from "./bumper.repository.ts";

/**
 * Each block: every bumper that is due, or has a bump on its way, moves one step (see
 * BumperEngine). One pass at a time across every process; each bumper's step runs under its
 * own lock, and each step's transactions have their own keys, so a pass that died halfway is
 * finished by the next without sending anything twice.
 */
export const BUMPER_TICK: QueueSpec = perBlockQueue("bumper-tick");

export const workBumperJobs = async (jobs: JobEngine, engine: BumperEngine): Promise<void> => {
  await jobs.onEachBlock(BUMPER_TICK, () => engine.tick(), bumperDue);
};
