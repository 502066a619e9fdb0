import { type JobEngine, perBlockQueue, type QueueSpec } from "../../lib/jobs.ts";
import { pnlDue } from "./pnl.repository.ts";
import type { PnlLedger } from "./pnl-ledger.ts";

/**
 * Each block: every launched bundle's ledger takes in what the chain says of its new launches
 * and transactions (see PnlLedger). Lines are keyed by transaction, log, kind and wallet, so a
 * pass that died halfway, or ran twice, adds nothing twice.
 */
export const PNL_LEDGER: QueueSpec = perBlockQueue("pnl-ledger");

export const workPnlJobs = async (jobs: JobEngine, ledger: PnlLedger): Promise<void> => {
  await jobs.onEachBlock(PNL_LEDGER, () => ledger.pass(), pnlDue);
};
