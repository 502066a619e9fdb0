import type { DispersalStatus } from "@bundler/shared";
import { and, asc, eq, gt, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { dispersalDeposits, dispersalLegs, dispersals } from "../../db/schema.ts";
import type { Credit } from "../../lib/deposit-credit.ts";

export type DispersalRow = typeof dispersals.$inferSelect;
export type LegRow = typeof dispersalLegs.$inferSelect;
export type DepositRow = typeof dispersalDeposits.$inferSelect;
/** What a dispersal's view shows of a leg and of a deposit. */
export type ViewLeg = Pick<LegRow, "index" | "destination" | "amount">;
export type ViewDeposit = Pick<DepositRow, "from" | "refundable" | "heldReason">;

/** Funded and still moving money. */
export const MOVING: DispersalStatus[] = ["sending", "processing"];
/** How long a closed dispersal's receiver is still watched for late transfers. */
const LATE_WATCH = sql`now() - interval '7 days'`;

/** Still watched: not final, holding money not yet settled, or closed less than a week ago. */
const isWatched = () =>
  or(
    inArray(dispersals.status, ["pending", ...MOVING]),
    isNull(dispersals.settledAt),
    gt(dispersals.createdAt, LATE_WATCH),
  );

/** The dispersal pass has work: a dispersal's receiver is still watched. */
export const disperseDue = (): SQL =>
  sql`exists (select 1 from ${dispersals} where ${isWatched()})`;

export class DisperseRepository {
  constructor(readonly db: Db) {}

  /** Runs `work` in one transaction: every write given its `tx` commits or none does. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** The owner's dispersals that are not final yet. */
  async countActive(ownerId: string, tx: Tx): Promise<number> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(dispersals)
      .where(
        and(eq(dispersals.ownerId, ownerId), inArray(dispersals.status, ["pending", ...MOVING])),
      );
    return row?.n ?? 0;
  }

  /** The dispersal and its legs, inside the caller's transaction. */
  async create(
    values: typeof dispersals.$inferInsert,
    legs: Array<Omit<typeof dispersalLegs.$inferInsert, "dispersalId">>,
    tx: Tx,
  ): Promise<DispersalRow> {
    const [row] = await tx.insert(dispersals).values(values).returning();
    if (!row) throw new Error("dispersal insert returned nothing");
    await tx.insert(dispersalLegs).values(legs.map((leg) => ({ ...leg, dispersalId: row.id })));
    return row;
  }

  async byReceiver(receiver: string, ownerId: string): Promise<DispersalRow | undefined> {
    const [row] = await this.db
      .select()
      .from(dispersals)
      .where(and(eq(dispersals.receiver, receiver), eq(dispersals.ownerId, ownerId)))
      .limit(1);
    return row;
  }

  /**
   * The status poll's read, in one query: the owner's dispersal with its legs and the deposits
   * its view shows (the legs' and deposits' own indexes answer the subqueries).
   */
  async withLegsAndDeposits(
    receiver: string,
    ownerId: string,
  ): Promise<{ row: DispersalRow; legs: ViewLeg[]; deposits: ViewDeposit[] } | undefined> {
    const [found] = await this.db
      .select({
        row: dispersals,
        legs: sql<ViewLeg[]>`(
          select coalesce(json_agg(json_build_object(
            'index', l.index, 'destination', l.destination, 'amount', l.amount::text
          ) order by l.index), '[]'::json)
          from ${dispersalLegs} l where l.dispersal_id = ${dispersals.id})`,
        deposits: sql<ViewDeposit[]>`(
          select coalesce(json_agg(json_build_object(
            'from', d."from", 'refundable', d.refundable::text, 'heldReason', d.held_reason
          ) order by d.block_number), '[]'::json)
          from ${dispersalDeposits} d where d.dispersal_id = ${dispersals.id})`,
      })
      .from(dispersals)
      .where(and(eq(dispersals.receiver, receiver), eq(dispersals.ownerId, ownerId)))
      .limit(1);
    return found;
  }

  async byId(id: string): Promise<DispersalRow | undefined> {
    const [row] = await this.db.select().from(dispersals).where(eq(dispersals.id, id)).limit(1);
    return row;
  }

  /**
   * The receivers whose incoming transfers the block scan records: pending, moving or
   * unsettled dispersals, and closed ones recent enough that money may still arrive.
   */
  async scanSet(): Promise<Array<{ id: string; receiver: string; scanFromBlock: bigint }>> {
    return this.db
      .select({
        id: dispersals.id,
        receiver: dispersals.receiver,
        scanFromBlock: dispersals.scanFromBlock,
      })
      .from(dispersals)
      .where(isWatched());
  }

  /** The dispersals that need a look: pending, moving, or closed with money not yet settled. */
  async active(): Promise<DispersalRow[]> {
    return this.db
      .select()
      .from(dispersals)
      .where(or(inArray(dispersals.status, ["pending", ...MOVING]), isNull(dispersals.settledAt)))
      .orderBy(asc(dispersals.createdAt));
  }

  /** The funder of the dispersal whose receiver or route wallet `address` is, if funded. */
  async funderOf(address: string): Promise<string | null> {
    const [direct] = await this.db
      .select({ funder: dispersals.funder })
      .from(dispersals)
      .where(eq(dispersals.receiver, address));
    if (direct) return direct.funder;
    const [routed] = await this.db
      .select({ funder: dispersals.funder })
      .from(dispersalLegs)
      .innerJoin(dispersals, eq(dispersals.id, dispersalLegs.dispersalId))
      .where(sql`${dispersalLegs.wallets} @> ${JSON.stringify([address])}::jsonb`);
    return routed?.funder ?? null;
  }

  /** A closed dispersal with nothing left to refund, judged on `depositsSeen` deposits. */
  async settle(id: string, depositsSeen: number): Promise<void> {
    await this.db
      .update(dispersals)
      .set({ settledAt: sql`now()` })
      .where(
        and(
          eq(dispersals.id, id),
          isNull(dispersals.settledAt),
          sql`(select count(*) from ${dispersalDeposits} where ${dispersalDeposits.dispersalId} = ${id}) = ${depositsSeen}`,
        ),
      );
  }

  /** The deposit's refundable part stays at the receiver, for `reason`. */
  async hold(txHash: string, reason: string): Promise<void> {
    await this.db
      .update(dispersalDeposits)
      .set({ heldReason: reason })
      .where(and(eq(dispersalDeposits.txHash, txHash), isNull(dispersalDeposits.heldReason)));
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

  /**
   * pending → sending, with its funder and the block its funding was judged at, and each
   * deposit's part that goes back (`credit`), in one transaction; false when no longer pending.
   */
  async fund(id: string, credit: Credit, funder: string | null): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [won] = await tx
        .update(dispersals)
        .set({ status: "sending", fundedAt: new Date(), fundedBlock: credit.atBlock, funder })
        .where(and(eq(dispersals.id, id), eq(dispersals.status, "pending")))
        .returning({ id: dispersals.id });
      if (!won) return false;
      for (const { txHash, refundable } of credit.refundable)
        await tx
          .update(dispersalDeposits)
          .set({ refundable })
          .where(and(eq(dispersalDeposits.txHash, txHash), eq(dispersalDeposits.dispersalId, id)));
      return true;
    });
  }

  async legs(dispersalId: string): Promise<LegRow[]> {
    return this.db
      .select()
      .from(dispersalLegs)
      .where(eq(dispersalLegs.dispersalId, dispersalId))
      .orderBy(asc(dispersalLegs.index));
  }

  /**
   * Sets the intermediate wallets (their keys already stored) of every leg that has none, and
   * answers each leg's wallets as stored: of two passes racing, the first one's stay, and both
   * go on with them (the second's wallets, unused, hold nothing).
   */
  async setLegWallets(dispersalId: string, wallets: string[][]): Promise<Array<string[] | null>> {
    return this.db.transaction(async (tx) => {
      for (const [index, list] of wallets.entries()) {
        await tx
          .update(dispersalLegs)
          .set({ wallets: list })
          .where(
            and(
              eq(dispersalLegs.dispersalId, dispersalId),
              eq(dispersalLegs.index, index),
              isNull(dispersalLegs.wallets),
            ),
          );
      }
      const stored = await tx
        .select({ index: dispersalLegs.index, wallets: dispersalLegs.wallets })
        .from(dispersalLegs)
        .where(eq(dispersalLegs.dispersalId, dispersalId))
        .orderBy(asc(dispersalLegs.index));
      return stored.map((leg) => leg.wallets);
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

  /** Records a deposit once; a new one makes its dispersal unsettled again. */
  async insertDeposit(values: typeof dispersalDeposits.$inferInsert): Promise<void> {
    await this.db.transaction(async (tx) => {
      const rows = await tx
        .insert(dispersalDeposits)
        .values(values)
        .onConflictDoNothing()
        .returning({ txHash: dispersalDeposits.txHash });
      if (rows.length > 0)
        await tx
          .update(dispersals)
          .set({ settledAt: null })
          .where(eq(dispersals.id, values.dispersalId));
    });
  }
}
