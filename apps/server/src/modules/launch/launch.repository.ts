import { and, eq, inArray, lte, notExists, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { chainTxs, delayedBuys, drafts, launches, launchJobs } from "../../db/schema.ts";
import type { DbOrTx } from "../transactions/transactions.repository.ts";

export type LaunchJobRow = typeof launchJobs.$inferSelect;
export type DelayedBuyRow = typeof delayedBuys.$inferSelect;
type DraftRow = typeof drafts.$inferSelect;

/**
 * The adoption pass has work: a launch is running (its process may have died) or a delayed buy
 * is scheduled or running.
 */
export const adoptDue = (): SQL =>
  sql`(exists (select 1 from ${launchJobs} where ${eq(launchJobs.status, "running")}) or exists (select 1 from ${delayedBuys} where ${inArray(delayedBuys.status, ["scheduled", "running"])}))`;

export class LaunchRepository {
  constructor(readonly db: Db) {}

  /**
   * paid → executing, the launch job that runs it and (`andThen`) its queued work, in ONE
   * transaction: exactly one caller gets the draft back (as it is now, which is what it
   * launches), and a draft is never executing without its job.
   */
  async claimDraft(
    draftId: string,
    ownerId: string,
    /** Runs in the same transaction once the job exists (enqueues its work). */
    andThen: (tx: Tx, job: LaunchJobRow) => Promise<void> = async () => {},
  ): Promise<{ draft: DraftRow; job: LaunchJobRow } | undefined> {
    return this.db.transaction(async (tx) => {
      const [draft] = await tx
        .update(drafts)
        .set({ status: "executing", updatedAt: sql`now()` })
        .where(and(eq(drafts.id, draftId), eq(drafts.ownerId, ownerId), eq(drafts.status, "paid")))
        .returning();
      if (!draft) return undefined;
      const [job] = await tx.insert(launchJobs).values({ draftId, ownerId }).returning();
      if (!job) throw new Error("job insert returned nothing");
      await andThen(tx, job);
      return { draft, job };
    });
  }

  /**
   * The job failed with `error` and its draft executing → paid, in one transaction, if the job
   * is still running. With `unsentKey` (the launch's create), only if no transaction under that
   * key is recorded: the job's row is locked first, as `lockRunning` locks it to record a
   * bundle, so of a release and a recording racing (two processes that both believe they hold
   * the launch) exactly one happens. Answers whether it released.
   */
  async release(
    jobId: string,
    draftId: string,
    error: string,
    unsentKey?: string,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      if (!(await this.lockRunning(tx, jobId))) return false;
      if (unsentKey) {
        const [recorded] = await tx
          .select({ id: chainTxs.id })
          .from(chainTxs)
          .where(eq(chainTxs.key, unsentKey))
          .limit(1);
        if (recorded) return false;
      }
      await tx
        .update(launchJobs)
        .set({ status: "failed", error, updatedAt: sql`now()` })
        .where(and(eq(launchJobs.id, jobId), eq(launchJobs.status, "running")));
      await tx
        .update(drafts)
        .set({ status: "paid", updatedAt: sql`now()` })
        .where(and(eq(drafts.id, draftId), eq(drafts.status, "executing")));
      return true;
    });
  }

  /** Locks the job's row for `tx` and answers whether it is still running. */
  async lockRunning(tx: DbOrTx, jobId: string): Promise<boolean> {
    const [row] = await tx
      .select({ status: launchJobs.status })
      .from(launchJobs)
      .where(eq(launchJobs.id, jobId))
      .for("update");
    return row?.status === "running";
  }

  /** Drafts left executing with no running job (a crash of an older version): back to paid. */
  async releaseOrphans(): Promise<string[]> {
    const rows = await this.db
      .update(drafts)
      .set({ status: "paid", updatedAt: sql`now()` })
      .where(
        and(
          eq(drafts.status, "executing"),
          notExists(
            this.db
              .select({ id: launchJobs.id })
              .from(launchJobs)
              .where(and(eq(launchJobs.draftId, drafts.id), eq(launchJobs.status, "running"))),
          ),
        ),
      )
      .returning({ id: drafts.id, ownerId: drafts.ownerId });
    return rows.map((row) => row.ownerId);
  }

  async updateJob(id: string, values: Partial<typeof launchJobs.$inferInsert>): Promise<void> {
    await this.db
      .update(launchJobs)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(launchJobs.id, id));
  }

  async findJob(id: string): Promise<LaunchJobRow | undefined> {
    const [row] = await this.db.select().from(launchJobs).where(eq(launchJobs.id, id));
    return row;
  }

  async runningJobs(): Promise<LaunchJobRow[]> {
    return this.db.select().from(launchJobs).where(eq(launchJobs.status, "running"));
  }

  /**
   * Records the launch, marks the draft executed and the job succeeded, in one transaction and
   * once: a job no longer running (completed or released by another worker) changes nothing.
   * Answers whether this call completed it.
   */
  async complete(values: {
    jobId: string;
    draftId: string;
    ownerId: string;
    tokenAddress: string;
    ticker: string;
    name: string;
    image: string;
    wallets: string[];
    blockNumber: bigint;
    atomicWallets: number;
  }): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [job] = await tx
        .update(launchJobs)
        .set({ status: "succeeded", tokenAddress: values.tokenAddress, updatedAt: sql`now()` })
        .where(and(eq(launchJobs.id, values.jobId), eq(launchJobs.status, "running")))
        .returning({ id: launchJobs.id });
      if (!job) return false;
      await tx.insert(launches).values({
        ownerId: values.ownerId,
        draftId: values.draftId,
        tokenAddress: values.tokenAddress,
        ticker: values.ticker,
        name: values.name,
        image: values.image,
        wallets: values.wallets,
        blockNumber: values.blockNumber,
      });
      await tx
        .update(drafts)
        .set({
          status: "executed",
          updatedAt: sql`now()`,
          launch: {
            tokenAddress: values.tokenAddress,
            blockNumber: values.blockNumber.toString(),
            atomicWallets: values.atomicWallets,
            totalWallets: values.wallets.length,
          },
        })
        .where(eq(drafts.id, values.draftId));
      return true;
    });
  }

  /** The draft's one delayed buy; an existing row (a second scheduling) is answered as is. */
  async insertDelayedBuy(values: typeof delayedBuys.$inferInsert): Promise<DelayedBuyRow> {
    const [row] = await this.db
      .insert(delayedBuys)
      .values(values)
      .onConflictDoNothing({ target: delayedBuys.draftId })
      .returning();
    if (row) return row;
    const [existing] = await this.db
      .select()
      .from(delayedBuys)
      .where(eq(delayedBuys.draftId, values.draftId));
    if (!existing) throw new Error("delayed buy insert returned nothing");
    return existing;
  }

  /** scheduled → running, once: whoever gets the row back runs the buy. */
  async claimDelayedBuy(id: string): Promise<DelayedBuyRow | undefined> {
    const [row] = await this.db
      .update(delayedBuys)
      .set({ status: "running", updatedAt: sql`now()` })
      .where(
        and(
          eq(delayedBuys.id, id),
          eq(delayedBuys.status, "scheduled"),
          lte(delayedBuys.dueAt, sql`now()`),
        ),
      )
      .returning();
    return row;
  }

  /** running → succeeded/failed, once: answers whether this call finished it. */
  async finishDelayedBuy(
    id: string,
    values: { status: "succeeded" | "failed"; txHash?: string | null; error?: string | null },
  ): Promise<boolean> {
    const rows = await this.db
      .update(delayedBuys)
      .set({ ...values, updatedAt: sql`now()` })
      .where(and(eq(delayedBuys.id, id), eq(delayedBuys.status, "running")))
      .returning({ id: delayedBuys.id });
    return rows.length > 0;
  }

  async delayedBuysIn(status: DelayedBuyRow["status"]): Promise<DelayedBuyRow[]> {
    return this.db
      .select()
      .from(delayedBuys)
      .where(eq(delayedBuys.status, status))
      .orderBy(delayedBuys.dueAt);
  }

  async findDelayedBuyById(id: string): Promise<DelayedBuyRow | undefined> {
    const [row] = await this.db.select().from(delayedBuys).where(eq(delayedBuys.id, id));
    return row;
  }

  async findDelayedBuy(draftId: string): Promise<DelayedBuyRow | undefined> {
    const [row] = await this.db.select().from(delayedBuys).where(eq(delayedBuys.draftId, draftId));
    return row;
  }
}
