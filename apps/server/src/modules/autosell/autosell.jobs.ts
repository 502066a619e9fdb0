import { type JobEngine, perBlockQueue, type QueueSpec } from "../../lib/jobs.ts";
import type { AutosellEngine } from "./autosell.engine.ts";
import { autosellDue } from "./autosell-pass.repository.ts";

/**
 * Each block with an armed rule or a firing still selling: every rule's trigger read at that
 * block, firings recorded before any sale, and due waves sent (see AutosellEngine). The queue is
 * stately: one pass at a time across every process; a firing is recorded once whichever runs it.
 */
// A pass takes well under a second: a process killed mid-pass holds the queue until its job
// expires, so the expiry is short (the default 30 s would stall every rule that long).
export const AUTOSELL_PASS: QueueSpec = perBlockQueue("autosell-pass", 10);

export const workAutosellJobs = async (jobs: JobEngine, engine: AutosellEngine): Promise<void> => {
  await jobs.onEachBlock(AUTOSELL_PASS, () => engine.pass(), autosellDue);
};
