import { createHash } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import PgBoss from "pg-boss";
import { type Db, type JobStore, type Tx, txExecutor } from "../db/client.ts";

/** One kind of background work: a pg-boss queue and how its jobs are retried. */
export interface QueueSpec {
  name: string;
  /**
   * `standard`: every job runs; `stately`: at most one waiting and one running (per
   * singletonKey), so sending while one waits is a no-op (work that reads the head and catches
   * up in one pass).
   */
  policy?: "standard" | "stately";
  /** Attempts after the first (default 5). */
  retryLimit?: number;
  /** Seconds before a failed job is tried again (default 2). */
  retryDelay?: number;
  retryBackoff?: boolean;
  /**
   * Seconds a running job may take before it is failed and retried elsewhere: what a process
   * that died holding the job costs in delay (default 60). Handlers must tolerate a second
   * copy started after this, as every handler here does (conditional updates, locks, keys).
   */
  expireInSeconds?: number;
}

export interface JobInfo {
  id: string;
  retryCount: number;
}

export type JobHandler<T> = (data: T, job: JobInfo) => Promise<void>;

export interface SendOptions {
  /** The job's id: a second send with the same id adds nothing. */
  id?: string;
  startAfter?: Date;
  singletonKey?: string;
  /** Enqueue inside this transaction: the job exists exactly when the transaction commits. */
  tx?: Tx;
}

export interface FailedJob {
  queue: string;
  id: string;
  data: unknown;
  error: unknown;
  retryCount: number;
  createdOn: Date;
  completedOn: Date | null;
}

export interface JobEngineOptions {
  log?: (message: string) => void;
  /**
   * How often an idle worker asks for work, seconds (min 0.5; default 5). Work this process
   * sends, delays and retries wakes its own worker when due, so the poll only finds work sent
   * by other processes or left by one that died.
   */
  pollingIntervalSeconds?: number;
  /** How often expired jobs are failed over and old ones archived, seconds (default 10). */
  maintenanceIntervalSeconds?: number;
}

/**
 * A pass that runs on each block (it reads the head and catches up on whatever it missed):
 * one at a time across every process, at most one waiting, never retried (the next block's
 * pass is the retry), failed over after `expireInSeconds` when its process died.
 */
export const perBlockQueue = (name: string, expireInSeconds = 30): QueueSpec => ({
  name,
  policy: "stately",
  retryLimit: 0,
  expireInSeconds,
});

/**
 * Whether a per-block pass has anything to do: a boolean SQL expression over the app's own
 * tables (`exists (select 1 from ... where ...)`, the same condition the pass selects its work
 * by), read on every block for every pass in one statement. A pass whose condition is false
 * gets no job that block: an idle server asks one query a block instead of a job's insert,
 * fetch and completion and the pass's own reads for each pass.
 */
export type DueWhen = () => SQL;

const SCHEMA = "pgboss";
const dialect = new PgDialect();
const STATELY_BUSY = /job_i3/;

/** A stable id for one queue's job of one block: every process that sees it sends the same. */
const blockJobId = (queue: string, blockNumber: number): string => {
  const hex = createHash("sha256").update(`${queue}:block:${blockNumber}`).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/**
 * The one scheduler: pg-boss 10 on the app's own database (Postgres through its own pool,
 * PGlite through the same instance). Each module declares its queues and handlers in its
 * `<domain>.jobs.ts`; any process running the engine works any queue, so work survives the
 * process that enqueued it. A job this process sends wakes this process's own worker at once
 * (`notifyWorker`), so nothing waits for a poll; other processes pick work up on their poll.
 * Work that runs "on each block" registers with `eachBlock`: the block watcher announces a
 * block (`announceBlock`), which inserts one job per such queue in one statement, with ids
 * derived from the queue and the block number (however many processes announce it, each
 * queue gets one job per block) and coalesced by the queue's stately policy.
 */
export class JobEngine {
  private readonly workers = new Map<string, string[]>();
  private readonly perBlock: Array<{ name: string; due?: DueWhen }> = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  private constructor(
    private readonly boss: PgBoss,
    private readonly options: JobEngineOptions,
  ) {}

  static async start(store: JobStore, options: JobEngineOptions = {}): Promise<JobEngine> {
    const boss = new PgBoss({
      ...("connectionString" in store
        ? { connectionString: store.connectionString, max: 4 }
        : { db: store.db as PgBoss.Db }),
      schema: SCHEMA,
      schedule: false,
      supervise: true,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 10,
      archiveCompletedAfterSeconds: 3600,
      archiveFailedAfterSeconds: 7 * 24 * 3600,
      deleteAfterDays: 7,
    });
    const engine = new JobEngine(boss, options);
    boss.on("error", (error) => {
      // A stately queue's waiting pass cannot start while one runs: pg-boss learns it from the
      // unique index, as an error on that poll. That is the policy working, not a fault.
      if (
        engine.stopped ||
        STATELY_BUSY.test(`${error.message} ${(error as { constraint?: string }).constraint}`)
      )
        return;
      options.log?.(`jobs: ${error.message}`);
    });
    await boss.start();
    return engine;
  }

  /**
   * Declares a queue and works it here with `workers` concurrent handlers. A handler that
   * throws fails the job, which pg-boss retries as the spec says; one that returns completes it.
   */
  async queue<T>(spec: QueueSpec, handler: JobHandler<T>, workers = 1): Promise<string[]> {
    const options = {
      policy: spec.policy ?? "standard",
      retryLimit: spec.retryLimit ?? 5,
      retryDelay: spec.retryDelay ?? 2,
      retryBackoff: spec.retryBackoff ?? false,
      expireInSeconds: spec.expireInSeconds ?? 60,
    };
    await this.boss.createQueue(spec.name, { name: spec.name, ...options });
    // A queue created by an older version keeps its options otherwise.
    await this.boss.updateQueue(spec.name, { name: spec.name, ...options });
    const ids: string[] = [];
    for (let i = 0; i < workers; i++) {
      ids.push(
        await this.boss.work<T>(
          spec.name,
          {
            batchSize: 1,
            includeMetadata: true,
            pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? DEFAULT_POLL_SECONDS,
          },
          async ([job]) => {
            if (!job) return;
            try {
              await handler(job.data, { id: job.id, retryCount: job.retryCount });
            } catch (error) {
              if (!this.stopped)
                this.options.log?.(`job ${spec.name} ${job.id}: ${(error as Error).message}`);
              if (job.retryCount < options.retryLimit) this.wakeForRetry(spec.name, job, options);
              throw error;
            }
          },
        ),
      );
    }
    this.workers.set(spec.name, [...(this.workers.get(spec.name) ?? []), ...ids]);
    return ids;
  }

  /**
   * Hands back, at once, the jobs a process that died left active: each is failed over as
   * pg-boss would after its `expireInSeconds` (retried, or failed when out of retries), so a
   * per-block pass or a launch resumes now instead of half a minute to ten minutes later.
   * Only for a process that knows it is the database's only worker (the embedded database,
   * whose data dir one process holds): elsewhere another process may be working them.
   * Answers how many it handed back.
   */
  async retryAbandoned(startedBefore: Date): Promise<number> {
    const { rows } = await this.boss.getDb().executeSql(
      `select name, id, retry_count as "retryCount", retry_limit as "retryLimit",
          retry_delay as "retryDelay", retry_backoff as "retryBackoff"
        from ${SCHEMA}.job where state = 'active' and started_on < $1`,
      [startedBefore.toISOString()],
    );
    for (const job of rows as AbandonedJob[]) {
      await this.boss.fail(job.name, job.id, { message: "its process ended before it finished" });
      // Its retry falls due after the queue's delay: wake this process's worker then.
      if (job.retryCount < job.retryLimit) this.wakeForRetry(job.name, job, job);
    }
    return rows.length;
  }

  /** Stops these workers (the queue stays; other workers and processes go on working it). */
  async offWork(ids: string[]): Promise<void> {
    for (const [name, list] of this.workers)
      this.workers.set(
        name,
        list.filter((id) => !ids.includes(id)),
      );
    for (const id of ids) await this.boss.offWork({ id });
  }

  /** Where a job is: created (waiting), retry, active, completed, cancelled, failed, or null. */
  async stateOf(
    name: string,
    id: string,
  ): Promise<{ state: string; startedOn: Date | null } | null> {
    const job = await this.boss.getJobById(name, id, { includeArchive: true });
    return job ? { state: job.state, startedOn: job.startedOn ?? null } : null;
  }

  /**
   * Sends one job to this queue on every new block (declare it with `queue`); with `due`, only
   * on the blocks where `due` holds.
   */
  eachBlock(name: string, due?: DueWhen): void {
    if (!this.perBlock.some((pass) => pass.name === name))
      this.perBlock.push(due ? { name, due } : { name });
  }

  /**
   * Declares a per-block pass (`perBlockQueue`) and runs `pass` for it here, on each block where
   * `due` (when given) says there is work.
   */
  async onEachBlock(
    spec: QueueSpec,
    pass: () => Promise<unknown>,
    due?: DueWhen,
  ): Promise<string[]> {
    const ids = await this.queue(spec, async () => {
      await pass();
    });
    this.eachBlock(spec.name, due);
    return ids;
  }

  /** Enqueues a job; answers its id, or null when the queue's policy or the id made it a no-op. */
  async send<T extends object>(
    name: string,
    data: T,
    options: SendOptions = {},
  ): Promise<string | null> {
    const id = await this.boss.send(name, data, {
      ...(options.id ? { id: options.id } : {}),
      ...(options.startAfter ? { startAfter: options.startAfter } : {}),
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.tx ? { db: txExecutor(options.tx) as PgBoss.Db } : {}),
    });
    // A job sent in a transaction is not there until it commits: its sender wakes the worker.
    if (id && options.startAfter) this.wakeAt(name, options.startAfter.getTime());
    else if (id && !options.tx) this.wake(name);
    return id;
  }

  /**
   * A new block was seen: one job of it for each per-block queue that has work, however many
   * processes saw it, in one statement (a job per block and queue costs a database round trip
   * each, which on the embedded database is the server's own CPU). Answers the queues sent.
   */
  async announceBlock(blockNumber: number): Promise<string[]> {
    const due = await this.duePasses();
    if (due.length === 0) return [];
    await this.boss.insert(
      due.map((name) => ({
        name,
        id: blockJobId(name, blockNumber),
        data: { blockNumber },
      })),
    );
    for (const name of due) this.wake(name);
    return due;
  }

  /** The per-block queues with work now: every `due` asked in one statement. */
  private async duePasses(): Promise<string[]> {
    const gated = this.perBlock.flatMap((pass) => (pass.due ? [pass.due] : []));
    if (gated.length === 0) return this.perBlock.map((pass) => pass.name);
    const query = dialect.sqlToQuery(
      sql`select ${sql.join(
        gated.map((due, i) => sql`(${due()}) as ${sql.identifier(`due${i}`)}`),
        sql`, `,
      )}`,
    );
    const { rows } = await this.boss.getDb().executeSql(query.sql, query.params);
    const answers = (rows[0] ?? {}) as Record<string, boolean>;
    let i = 0;
    return this.perBlock
      .filter((pass) => !pass.due || answers[`due${i++}`] === true)
      .map((pass) => pass.name);
  }

  /** Stops fetching, waits a little for running handlers, and closes the pool. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.boss.stop({ graceful: true, wait: true, timeout: 5_000 });
  }

  /** Wakes this process's workers of a queue (after a job sent in a transaction committed). */
  wake(name: string): void {
    for (const id of this.workers.get(name) ?? []) this.boss.notifyWorker(id);
  }

  /** Wakes this process's workers of a queue when a delayed job falls due (a little after). */
  private wakeAt(name: string, at: number): void {
    const delay = at - Date.now() + WAKE_MARGIN_MS;
    // Far-off jobs are left to the poll (a timer this long would outlive most processes).
    if (this.stopped || delay > MAX_WAKE_DELAY_MS) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (!this.stopped) this.wake(name);
      },
      Math.max(0, delay),
    );
    timer.unref();
    this.timers.add(timer);
  }

  /**
   * A failed job comes back after its retry delay (pg-boss: the delay, or with backoff a random
   * time between half and all of delay × 2^attempt): wake at both ends of that window.
   */
  private wakeForRetry(
    name: string,
    job: { retryCount: number },
    options: { retryDelay: number; retryBackoff: boolean },
  ): void {
    const now = Date.now();
    const most = options.retryBackoff
      ? options.retryDelay * 2 ** Math.min(16, job.retryCount + 1)
      : options.retryDelay;
    if (options.retryBackoff) this.wakeAt(name, now + (most / 2) * 1000);
    this.wakeAt(name, now + most * 1000);
  }
}

interface AbandonedJob {
  name: string;
  id: string;
  retryCount: number;
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
}

/** How often an idle worker polls by default (see `pollingIntervalSeconds`). */
const DEFAULT_POLL_SECONDS = 5;
/** A delayed job's wake comes this long after it is due (pg-boss compares to its clock). */
const WAKE_MARGIN_MS = 100;
const MAX_WAKE_DELAY_MS = 24 * 3600 * 1000;

/**
 * Jobs that used up their retries, newest first, from the live table and the archive (kept 7
 * days): `npm run jobs:failed` prints them.
 */
export const failedJobs = async (db: Db, limit = 50): Promise<FailedJob[]> => {
  // Before the first server start the job engine's tables do not exist yet.
  const installed = await db.execute(sql`select to_regclass(${`${SCHEMA}.job`}) as t`);
  if (!installed.rows[0]?.t) return [];
  const columns = sql.raw(
    `name as queue, id, data, output as error, retry_count as "retryCount", created_on as "createdOn", completed_on as "completedOn"`,
  );
  const result = await db.execute(sql`
    select * from (
      select ${columns} from ${sql.raw(SCHEMA)}.job where state = 'failed'
      union all
      select ${columns} from ${sql.raw(SCHEMA)}.archive where state = 'failed'
    ) failed order by "completedOn" desc nulls last limit ${limit}`);
  return (result.rows as unknown as FailedJob[]).map((row) => ({
    ...row,
    createdOn: new Date(row.createdOn),
    completedOn: row.completedOn ? new Date(row.completedOn) : null,
  }));
};
