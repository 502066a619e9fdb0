import { and, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { delayedBuys, drafts, launches, launchJobs } from "../../db/schema.ts";

export type LaunchJobRow = typeof launchJobs.$inferSelect;
export type DelayedBuyRow = typeof delayedBuys.$inferSelect;

export class LaunchRepository {
  constructor(readonly db: Db) {}

  /** paid → executing, once: the single conditional UPDATE that makes execution happen once. */
  async claimDraft(draftId: string, ownerId: string): Promise<boolean> {
    const rows = await this.db
      .update(drafts)
      .set({ status: "executing", updatedAt: sql`now()` })
      .where(and(eq(drafts.id, draftId), eq(drafts.ownerId, ownerId), eq(drafts.status, "paid")))
      .returning({ id: drafts.id });
    return rows.length > 0;
  }

  async releaseDraft(draftId: string): Promise<void> {
    await this.db
      .update(drafts)
      .set({ status: "paid", updatedAt: sql`now()` })
      .where(and(eq(drafts.id, draftId), eq(drafts.status, "executing")));
  }

  async insertJob(draftId: string, ownerId: string): Promise<LaunchJobRow> {
    const [row] = await this.db.insert(launchJobs).values({ draftId, ownerId }).returning();
    if (!row) throw new Error("job insert returned nothing");
    return row;
  }

  async updateJob(id: string, values: Partial<typeof launchJobs.$inferInsert>): Promise<void> {
    await this.db
      .update(launchJobs)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(launchJobs.id, id));
  }

  async runningJobs(): Promise<LaunchJobRow[]> {
    return this.db.select().from(launchJobs).where(eq(launchJobs.status, "running"));
  }

  /** Records the launch and marks the draft executed, in one transaction. */
  async complete(values: {
    jobId: string;
    draftId: string;
    ownerId: string;
    tokenAddress: string;
    ticker: string;
    image: string;
    wallets: string[];
    blockNumber: bigint;
    atomicWallets: number;
  }): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(launches).values({
        ownerId: values.ownerId,
        draftId: values.draftId,
        tokenAddress: values.tokenAddress,
        ticker: values.ticker,
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
        .where(and(eq(drafts.id, values.draftId), eq(drafts.status, "executing")));
      await tx
        .update(launchJobs)
        .set({ status: "succeeded", tokenAddress: values.tokenAddress, updatedAt: sql`now()` })
        .where(eq(launchJobs.id, values.jobId));
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

  async finishDelayedBuy(
    id: string,
    values: { status: "succeeded" | "failed"; txHash?: string | null; error?: string | null },
  ): Promise<void> {
    await this.db
      .update(delayedBuys)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(delayedBuys.id, id));
  }

  async delayedBuysIn(status: DelayedBuyRow["status"]): Promise<DelayedBuyRow[]> {
    return this.db
      .select()
      .from(delayedBuys)
      .where(eq(delayedBuys.status, status))
      .orderBy(delayedBuys.dueAt);
  }

  async findDelayedBuy(draftId: string): Promise<DelayedBuyRow | undefined> {
    const [row] = await this.db.select().from(delayedBuys).where(eq(delayedBuys.draftId, draftId));
    return row;
  }
}
