import type { DispersalStatus } from "@bundler/shared";
import { and, asc, eq, gt, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import {
  dispersalDeposits,
  dispersalLegs,
  dispersals,
  dispersalTransfers,
} from "../../db/schema.ts";

export type DispersalRow = typeof dispersals.$inferSelect;
export type LegRow = typeof dispersalLegs.$inferSelect;
export type DepositRow = typeof dispersalDeposits.$inferSelect;
export type TransferRow = typeof dispersalTransfers.$inferSelect;
export type NewTransfer = typeof dispersalTransfers.$inferInsert;

/** Funded and still moving money. */
export const MOVING: DispersalStatus[] = ["sending", "processing"];
/** How long a closed dispersal's receiver is still watched for late transfers. */
const LATE_WATCH = sql`now() - interval '7 days'`;

export class DisperseRepository {
  constructor(readonly db: Db) {}

  /** The dispersal and its legs, written together. */
  async create(
    values: typeof dispersals.$inferInsert,
    legs: Array<Omit<typeof dispersalLegs.$inferInsert, "dispersalId">>,
  ): Promise<DispersalRow> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.insert(dispersals).values(values).returning();
      if (!row) throw new Error("dispersal insert returned nothing");
      await tx.insert(dispersalLegs).values(legs.map((leg) => ({ ...leg, dispersalId: row.id })));
      return row;
    });
  }

  async byReceiver(receiver: string, ownerId: string): Promise<DispersalRow | undefined> {
    const [row] = await this.db
      .select()
      .from(dispersals)
      .where(and(eq(dispersals.receiver, receiver), eq(dispersals.ownerId, ownerId)))
      .limit(1);
    return row;
  }

  async byId(id: string): Promise<DispersalRow | undefined> {
    const [row] = await this.db.select().from(dispersals).where(eq(dispersals.id, id)).limit(1);
    return row;
  }

  /** Pending or moving dispersals, and closed ones recent enough that money may still arrive. */
  async watched(): Promise<DispersalRow[]> {
    return this.db
      .select()
      .from(dispersals)
      .where(
        or(
          inArray(dispersals.status, ["pending", ...MOVING]),
          gt(dispersals.createdAt, LATE_WATCH),
        ),
      )
      .orderBy(asc(dispersals.createdAt));
  }

  /**
   * The single conditional transition of a status: exactly one caller gets `true` however
   * many ticks or restarts race on it.
   */
  async transition(
    id: string,
    from: DispersalStatus[],
    to: DispersalStatus,
    values: Partial<typeof dispersals.$inferInsert> = {},
  ): Promise<boolean> {
    const rows = await this.db
      .update(dispersals)
      .set({ ...values, status: to })
      .where(and(eq(dispersals.id, id), inArray(dispersals.status, from)))
      .returning({ id: dispersals.id });
    return rows.length > 0;
  }

  async setScanFrom(ids: string[], block: bigint): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(dispersals)
      .set({ scanFromBlock: block })
      .where(inArray(dispersals.id, ids));
  }

  async legs(dispersalId: string): Promise<LegRow[]> {
    return this.db
      .select()
      .from(dispersalLegs)
      .where(eq(dispersalLegs.dispersalId, dispersalId))
      .orderBy(asc(dispersalLegs.index));
  }

  /** Sets every leg's intermediate wallets at once (their keys are already stored). */
  async setLegWallets(dispersalId: string, wallets: string[][]): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const [index, list] of wallets.entries()) {
        await tx
          .update(dispersalLegs)
          .set({ wallets: list })
          .where(and(eq(dispersalLegs.dispersalId, dispersalId), eq(dispersalLegs.index, index)));
      }
    });
  }

  async deposits(dispersalIds: string[]): Promise<DepositRow[]> {
    if (dispersalIds.length === 0) return [];
    return this.db
      .select()
      .from(dispersalDeposits)
      .where(inArray(dispersalDeposits.dispersalId, dispersalIds))
      .orderBy(asc(dispersalDeposits.blockNumber));
  }

  async insertDeposit(values: typeof dispersalDeposits.$inferInsert): Promise<void> {
    await this.db.insert(dispersalDeposits).values(values).onConflictDoNothing();
  }

  async transfers(dispersalIds: string[]): Promise<TransferRow[]> {
    if (dispersalIds.length === 0) return [];
    return this.db
      .select()
      .from(dispersalTransfers)
      .where(inArray(dispersalTransfers.dispersalId, dispersalIds))
      .orderBy(asc(dispersalTransfers.createdAt), asc(dispersalTransfers.nonce));
  }

  /**
   * Records signed transfers before anything is broadcast. A step already recorded (another
   * tick, an earlier life of the process) is skipped: only the returned rows may be sent.
   */
  async insertTransfers(values: NewTransfer[]): Promise<TransferRow[]> {
    if (values.length === 0) return [];
    return this.db
      .insert(dispersalTransfers)
      .values(values)
      .onConflictDoNothing({ target: [dispersalTransfers.dispersalId, dispersalTransfers.stepKey] })
      .returning();
  }

  async unfinishedTransfers(): Promise<TransferRow[]> {
    return this.db
      .select()
      .from(dispersalTransfers)
      .where(inArray(dispersalTransfers.status, ["signed", "sent"]))
      .orderBy(asc(dispersalTransfers.nonce));
  }

  async setTransfers(
    ids: string[],
    values: Partial<Pick<NewTransfer, "status" | "error" | "blockNumber">>,
  ): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(dispersalTransfers)
      .set({ ...values, updatedAt: sql`now()` })
      .where(inArray(dispersalTransfers.id, ids));
  }
}
