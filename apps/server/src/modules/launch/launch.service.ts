import { ChainError } from "@bundler/chain";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { BadRequestError, ConflictError } from "../../lib/errors.ts";
import { failpoint } from "../../lib/failpoints.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import type { DraftsService } from "../drafts/drafts.service.ts";
import type { TxManager } from "../transactions/tx-manager.ts";
import { DelayedBuys } from "./delayed-buys.ts";
import { LAUNCH_EXECUTE, LAUNCH_SETTLE, type LaunchRuntime } from "./launch.jobs.ts";
import type { LaunchJobRow, LaunchRepository } from "./launch.repository.ts";
import { type LaunchRunOptions, runLaunch } from "./launch-bundle.ts";
import { createKey } from "./launch-keys.ts";
import { LaunchOutcome } from "./launch-outcome.ts";

export type Notify = (userId: string, message: string) => void | Promise<void>;

const NOT_EXECUTABLE: Record<string, string> = {
  draft: "This draft is not paid yet: pay the launch fee before executing it",
  pending_payment: "This draft's payment has not arrived yet: execute it once it is paid",
  executing: "This draft is already being launched: follow it in the terminal",
  executed: "This draft was already launched",
};

/** A launch job sent this long ago and not yet holding its lock is taken for dead. */
const START_GRACE_MS = 5000;

/** Thrown by a handler whose launch another process holds: pg-boss tries it again later. */
class HeldElsewhere extends Error {
  constructor(what: string) {
    super(`${what} is running in another process; tried again later`);
  }
}

/**
 * The launch engine: claims a paid draft once (paid → executing, with its job, in one
 * transaction), runs the bundle in the background, streams every step to the owner. Every
 * bundle is recorded with the transaction manager before it is sent; after anything goes wrong
 * past that point the launch waits until the bundle's last block has passed and asks the chain:
 * the create landed → the launch is recorded (the draft executed); it did not → the draft goes
 * back to paid, so the user retries without paying again. Never both, never neither.
 */
export class LaunchService {
  /** Launch jobs this instance started, until they end (for `idle`). */
  private readonly started = new Set<string>();
  /** Launch jobs this instance is running now, to their last step (for `idle`). */
  private readonly handling = new Set<Promise<void>>();
  private readonly delayedBuys: DelayedBuys;
  private readonly outcome: LaunchOutcome;
  private readonly stopHooks: Array<() => Promise<void>> = [];

  constructor(
    private readonly repository: LaunchRepository,
    private readonly drafts: DraftsService,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext | undefined,
    private readonly notify: Notify,
    private readonly runtime: LaunchRuntime,
    private readonly txm?: TxManager,
  ) {
    this.delayedBuys = new DelayedBuys({
      repository,
      vault,
      chain,
      txm,
      runtime,
      say: (ownerId, message) => this.say(ownerId, message),
    });
    this.outcome = new LaunchOutcome({
      repository,
      chain,
      runtime,
      delayedBuys: this.delayedBuys,
      say: (ownerId, message) => this.say(ownerId, message),
    });
  }

  async execute(ownerId: string, draftId: string): Promise<string> {
    const draft = await this.drafts.owned(ownerId, draftId);
    if (draft.status !== "paid")
      throw new ConflictError(NOT_EXECUTABLE[draft.status] ?? "This draft cannot be executed now");
    // Refused here, before the claim, when this server cannot launch at all.
    requireChain(this.chain);
    this.requireTxm();
    // The job's id is the launch's: its first delivery sends the bundle, any later one settles.
    const claimed = await this.repository.claimDraft(draftId, ownerId, async (tx, job) => {
      await this.runtime.jobs.send(LAUNCH_EXECUTE.name, { jobId: job.id }, { id: job.id, tx });
    });
    if (!claimed) {
      const now = await this.drafts.owned(ownerId, draftId);
      throw new ConflictError(NOT_EXECUTABLE[now.status] ?? "This draft cannot be executed now");
    }
    await failpoint("launch.claimed");
    // Checked on the row the claim returned: what is checked is what launches.
    const problem = await this.drafts.launchProblem(claimed.draft);
    if (problem) {
      await this.repository.release(claimed.job.id, draftId, problem, createKey(claimed.job.id));
      throw new BadRequestError(problem);
    }
    this.started.add(claimed.job.id);
    this.runtime.jobs.wake(LAUNCH_EXECUTE.name);
    return "Launch started: follow it in the terminal";
  }

  /**
   * Runs a launch job, in whichever process got it, under the launch's lock (one place at a
   * time): `fresh` (the job's first delivery) sends the bundle; otherwise the launch was
   * interrupted and only the chain says how it ended. A launch no longer running is left alone.
   */
  async handle(jobId: string, fresh: boolean): Promise<void> {
    const run = this.run(jobId, fresh);
    this.handling.add(run);
    try {
      await run;
    } finally {
      this.handling.delete(run);
    }
  }

  private async run(jobId: string, fresh: boolean): Promise<void> {
    const release = await this.runtime.tryLock(`launch:${jobId}`);
    if (!release) throw new HeldElsewhere(`launch ${jobId}`);
    try {
      const job = await this.repository.findJob(jobId);
      if (job?.status !== "running") return;
      const draft = await this.drafts.repository.findById(job.draftId);
      if (!draft) return;
      if (!fresh)
        return await this.outcome.settle(
          this.requireTxm(),
          job,
          draft,
          "the server restarted during the launch",
        );
      // Checked again here: another process may take the job before `execute` checked it.
      const problem = await this.drafts.launchProblem(draft);
      if (problem) {
        await this.repository.release(job.id, draft.id, problem, createKey(job.id));
        return;
      }
      await runLaunch(this.runOptions(), requireChain(this.chain), this.requireTxm(), job, draft);
    } finally {
      await release();
    }
  }

  /** Runs a delayed buy job (see DelayedBuys.handle). */
  handleDelayedBuy(id: string): Promise<void> {
    return this.delayedBuys.handle(id);
  }

  /**
   * Hands work whose process died to a live one: a running launch whose job is neither waiting
   * nor held (its lock is free) gets a settle job; delayed buys likewise. Each block, and at start.
   */
  async adopt(): Promise<void> {
    for (const job of await this.repository.runningJobs()) {
      if (await this.heldOrWaiting(job)) continue;
      await this.runtime.jobs.send(LAUNCH_SETTLE.name, { jobId: job.id }, { singletonKey: job.id });
      this.started.add(job.id);
    }
    await this.delayedBuys.adopt();
  }

  private async heldOrWaiting(job: LaunchJobRow): Promise<boolean> {
    const queued = await this.runtime.jobs.stateOf(LAUNCH_EXECUTE.name, job.id);
    if (queued?.state === "created" || queued?.state === "retry") return true;
    const since = queued?.startedOn ?? job.createdAt;
    if (queued?.state !== "completed" && Date.now() - since.getTime() < START_GRACE_MS) return true;
    const release = await this.runtime.tryLock(`launch:${job.id}`);
    if (!release) return true;
    await release();
    return false;
  }

  /**
   * Resolves when every launch this instance started has ended, and every launch job it runs
   * has taken its last step: a job is succeeded before its owner is told and its delayed buy
   * scheduled (tests).
   */
  async idle(): Promise<void> {
    while (this.started.size > 0 || this.handling.size > 0) {
      for (const id of this.started) {
        const job = await this.repository.findJob(id);
        if (job?.status !== "running") this.started.delete(id);
      }
      if (this.started.size > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      else await Promise.allSettled([...this.handling]);
    }
  }

  /** Resolves when every delayed buy this instance scheduled or adopted has ended (tests). */
  delayedIdle(): Promise<void> {
    return this.delayedBuys.idle();
  }

  /** Runs `hook` at `stop` (the job workers of this instance). */
  onStop(hook: () => Promise<void>): void {
    this.stopHooks.push(hook);
  }

  /** Stops this instance's workers and retries (shutdown): other processes, or the next start, go on. */
  stop(): void {
    this.outcome.stop();
    this.delayedBuys.stop();
    for (const hook of this.stopHooks.splice(0)) void hook().catch(() => {});
  }

  private requireTxm(): TxManager {
    if (!this.txm) throw new ChainError("no transaction manager");
    return this.txm;
  }

  /** A line of the owner's launch log; a failed launch is the operator's business too. */
  private say(ownerId: string, message: string): void {
    if (message.startsWith("FAILED ")) this.runtime.log?.(`user ${ownerId}: ${message}`);
    void Promise.resolve()
      .then(() => this.notify(ownerId, message))
      .catch(() => {});
  }

  private runOptions(): LaunchRunOptions {
    return {
      repository: this.repository,
      vault: this.vault,
      outcome: this.outcome,
      say: (ownerId, message) => this.say(ownerId, message),
      ...(this.runtime.sends ? { sends: this.runtime.sends } : {}),
    };
  }

  /**
   * At start: drafts an older version left executing without a job go back to paid; then the
   * same sweep as every block (work whose process died goes to a live worker).
   */
  async recover(): Promise<void> {
    for (const ownerId of await this.repository.releaseOrphans())
      this.say(
        ownerId,
        "FAILED launch: the server restarted before the launch started; the draft stays paid, execute it again",
      );
    await this.adopt();
  }
}
