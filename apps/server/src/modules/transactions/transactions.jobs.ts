import { type JobEngine, perBlockQueue, type QueueSpec } from "../../lib/jobs.ts";
import { reconcileDue } from "./transactions.repository.ts";
import type { TxManager } from "./tx-manager.ts";

/**
 * Each block: every open transaction of ours is checked against its receipt in one batched
 * read, rebroadcast when it waited too long, and ended when it was replaced or dropped. One
 * pass at a time across every process (stately); a missed block is caught up by the next pass.
 */
export const TX_RECONCILE: QueueSpec = perBlockQueue("tx-reconcile");

export const workTransactionJobs = async (jobs: JobEngine, txm: TxManager): Promise<void> => {
  await jobs.onEachBlock(TX_RECONCILE, () => txm.reconcile(), reconcileDue);
};
