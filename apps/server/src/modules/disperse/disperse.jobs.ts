import { type JobEngine, perBlockQueue, type QueueSpec } from "../../lib/jobs.ts";
import type { DisperseEngine } from "./disperse.engine.ts";
import { disperseDue } from "./disperse.repository.ts";

/**
 * Each block: every dispersal moves one step (funding noticed, the next hop of every chain
 * handed to the transaction manager, finished ones closed; see DisperseEngine.tick). One pass
 * at a time across every process; each step's transfer has its own key, so a pass that died
 * halfway is finished by the next one without sending anything twice.
 */
export const DISPERSE_STEP: QueueSpec = perBlockQueue("disperse-step");

export const workDisperseJobs = async (jobs: JobEngine, engine: DisperseEngine): Promise<void> => {
  await jobs.onEachBlock(DISPERSE_STEP, () => engine.tick(), disperseDue);
};
