import type { JobEngine, QueueSpec } from "../../lib/jobs.ts";
import type { PaymentWatcher } from "./payment.watcher.ts";

/**
 * Each block: the launch-fee payment addresses are read once (deposits, credit, expiry,
 * refunds, sweeps; see PaymentWatcher.tick). One pass at a time across every process.
 */
export const PAYMENT_WATCH: QueueSpec = {
  name: "payment-watch",
  policy: "stately",
  retryLimit: 0,
  expireInSeconds: 30,
};

export const workPaymentJobs = async (jobs: JobEngine, watcher: PaymentWatcher): Promise<void> => {
  await jobs.queue(PAYMENT_WATCH, () => watcher.tick());
  jobs.eachBlock(PAYMENT_WATCH.name);
};
