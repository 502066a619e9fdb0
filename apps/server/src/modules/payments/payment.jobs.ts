import { type JobEngine, perBlockQueue, type QueueSpec } from "../../lib/jobs.ts";
import { paymentWatchDue } from "./payment.repository.ts";
import type { PaymentWatcher } from "./payment.watcher.ts";

/**
 * Each block: the payment addresses (launch fees, key purchases) are read once (deposits, credit, expiry,
 * refunds, sweeps; see PaymentWatcher.tick). One pass at a time across every process.
 */
export const PAYMENT_WATCH: QueueSpec = perBlockQueue("payment-watch");

export const workPaymentJobs = async (jobs: JobEngine, watcher: PaymentWatcher): Promise<void> => {
  await jobs.onEachBlock(PAYMENT_WATCH, () => watcher.tick(), paymentWatchDue);
};
