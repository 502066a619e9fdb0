import type { ReleaseLock } from "../../db/client.ts";
import { type JobEngine, perBlockQueue, type QueueSpec } from "../../lib/jobs.ts";
import type { BuilderSends } from "../builders/builders.service.ts";
import { adoptDue } from "./launch.repository.ts";

/**
 * Launch work is retried for a long while (a handler whose launch is held elsewhere throws,
 * and tries again 5 s later): a launch whose process died is finished by another.
 */
const PATIENT = { retryLimit: 100, retryDelay: 5, expireInSeconds: 600 } as const;

/**
 * A launch, from its claim to its outcome: the job whose id is the launch job's id runs it
 * (the first delivery sends the bundle; a retry only asks the chain how it ended).
 */
export const LAUNCH_EXECUTE: QueueSpec = { name: "launch-execute", ...PATIENT };

/** A launch whose process died (or stopped) before it ended: decided from the chain, once. */
export const LAUNCH_SETTLE: QueueSpec = { name: "launch-settle", policy: "stately", ...PATIENT };

/** The delayed buy of a launch, sent to start at its due time. */
export const DELAYED_BUY: QueueSpec = { name: "delayed-buy", ...PATIENT };

/** A delayed buy found overdue or orphaned by the sweep: at most one waiting per buy. */
export const DELAYED_BUY_DUE: QueueSpec = {
  name: "delayed-buy-due",
  policy: "stately",
  ...PATIENT,
};

/** Each block: launches and delayed buys whose process died are handed to a live one. */
export const LAUNCH_ADOPT: QueueSpec = perBlockQueue("launch-adopt", 60);

/** Where launches run: the job engine, and the lock that keeps one launch in one place. */
export interface LaunchRuntime {
  jobs: JobEngine;
  tryLock: (key: string) => Promise<ReleaseLock | null>;
  /** The operator's log (what went wrong while nobody is watching the terminal). */
  log?: (message: string) => void;
  /** Where each bundle's builder answers are recorded (the builders' statistics). */
  sends?: BuilderSends;
}

/** What the launch queues call (the launch service). */
export interface LaunchHandlers {
  handle(jobId: string, fresh: boolean): Promise<void>;
  handleDelayedBuy(id: string): Promise<void>;
  adopt(): Promise<void>;
  onStop(hook: () => Promise<void>): void;
}

export interface LaunchJobData {
  jobId: string;
}

export interface DelayedBuyJobData {
  id: string;
}

/** Declares the launch queues and works them here with this process's launch service. */
export const workLaunchJobs = async (jobs: JobEngine, launches: LaunchHandlers): Promise<void> => {
  const ids = [
    ...(await jobs.queue<LaunchJobData>(
      LAUNCH_EXECUTE,
      (data, job) => launches.handle(data.jobId, job.id === data.jobId && job.retryCount === 0),
      2,
    )),
    ...(await jobs.queue<LaunchJobData>(
      LAUNCH_SETTLE,
      (data) => launches.handle(data.jobId, false),
      2,
    )),
    ...(await jobs.queue<DelayedBuyJobData>(
      DELAYED_BUY,
      (data) => launches.handleDelayedBuy(data.id),
      2,
    )),
    ...(await jobs.queue<DelayedBuyJobData>(DELAYED_BUY_DUE, (data) =>
      launches.handleDelayedBuy(data.id),
    )),
    ...(await jobs.onEachBlock(LAUNCH_ADOPT, () => launches.adopt(), adoptDue)),
  ];
  launches.onStop(() => jobs.offWork(ids));
};
