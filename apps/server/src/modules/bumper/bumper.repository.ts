import { and, asc, desc, eq, inArray, lte, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { bumpers, bumperWallets, bumps } from "../../db/schema.ts";

export type BumperRow = typeof bumpers.$inferSelect;
export type BumpRow = typeof bumps.$inferSelect;
export type BumperWalletRow = typeof bumperWallets.$inferSelect;
/** What a bumper's view shows of a bump done. */
export type ViewBump = Pick<
  BumpRow,
  | "index"
  | "tokens"
  | "bought"
  | "sold"
  | "gas"
  | "block"
  | "buyHash"
  | "sellHash"
  | "createdAt"
  | "doneAt"
>;
/** A bumper's wallet that holds its BNB now (see `liveWallets`). */
export type LiveWallet = Pick<BumperWalletRow, "bumperId" | "index" | "address">;
export type BumpTotals = { gas: bigint; volume: bigint };
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** A bump still on its way: its trade not yet final, or its BNB not yet moved on. */
const OPEN_BUMP = inArray(bumps.status, ["trading", "moving"]);

// A bumper's totals over its rows of bumps (the columns, unqualified, name the bumps read).
/** Gas (with tips) of every bump, wei, as text. */
const GAS = sql<string>`coalesce(sum(gas), 0)::text`;
/** Volume (buys + sells) of the bumps done, wei, as text. */
const VOLUME = sql<string>`coalesce(sum(coalesce(bought, 0) + coalesce(sold, 0)) filter (where status = 'done'), 0)::text`;

/** A bump as `withStatus`'s json carries it: each value as the driver's text. */
type JsonBump = Omit<ViewBump, "block" | "createdAt" | "doneAt"> & {
  block: string | null;
  createdAt: string;
  doneAt: string | null;
};

/** Mapped as drizzle maps the driver's text: bigint, and timestamptz through `new Date`. */
const fromJsonBump = (b: JsonBump): ViewBump => ({
  ...b,
  block: b.block === null ? null : BigInt(b.block),
  createdAt: new Date(b.createdAt),
  doneAt: b.doneAt === null ? null : new Date(b.doneAt),
});

const isDue = (now: Date) => and(eq(bumpers.status, "active"), lte(bumpers.nextBumpAt, now));

/** The bumper pass has work: a bumper is due for its next bump, or a bump is on its way. */
export const bumperDue = (): SQL =>
  sql`(exists (select 1 from ${bumpers} where ${isDue(new Date())}) or exists (select 1 from ${bumps} where ${bumps.status} in ('trading', 'moving')))`;

export class BumperRepository {
  constructor(readonly db: Db) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Inserts a bumper with its first wallet (whose key the caller stored in `tx`). */
  async create(
    tx: Tx,
    values: typeof bumpers.$inferInsert,
    firstWallet: string,
  ): Promise<BumperRow | null> {
    const [row] = await tx.insert(bumpers).values(values).onConflictDoNothing().returning();
    if (!row) return null;
    await tx.insert(bumperWallets).values({ bumperId: row.id, index: 0, address: firstWallet });
    return row;
  }

  /** The user's bumper of this token that is not completed, if any. */
  async openFor(ownerId: string, token: string): Promise<BumperRow | undefined> {
    const [row] = await this.db
      .select()
      .from(bumpers)
      .where(
        and(
          eq(bumpers.ownerId, ownerId),
          sql`lower(${bumpers.targetToken}) = ${token.toLowerCase()}`,
          sql`${bumpers.status} <> 'completed'`,
        ),
      );
    return row;
  }

  async owned(ownerId: string, id: string): Promise<BumperRow | undefined> {
    const [row] = await this.db
      .select()
      .from(bumpers)
      .where(and(eq(bumpers.id, id), eq(bumpers.ownerId, ownerId)));
    return row;
  }

  /**
   * The status poll's read, in one query: the owner's bumper with its live wallets, its totals
   * and its bumps done (each subquery answered by the primary key of bumps or bumper_wallets).
   */
  async withStatus(
    ownerId: string,
    id: string,
  ): Promise<
    { row: BumperRow; live: LiveWallet[]; totals: BumpTotals; bumps: ViewBump[] } | undefined
  > {
    const [found] = await this.db
      .select({
        row: bumpers,
        live: sql<LiveWallet[]>`(
          select coalesce(json_agg(json_build_object(
            'bumperId', w.bumper_id, 'index', w.index, 'address', w.address
          ) order by w.index), '[]'::json)
          from ${bumperWallets} w where w.bumper_id = ${bumpers}.id
            and w.index between ${bumpers}.current_wallet_index and ${bumpers}.current_wallet_index + 1)`,
        totals: sql<{ gas: string; volume: string }>`(
          select json_build_object('gas', ${GAS}, 'volume', ${VOLUME})
          from ${bumps} where ${bumps}.bumper_id = ${bumpers}.id)`,
        bumps: sql<JsonBump[]>`(
          select coalesce(json_agg(json_build_object(
            'index', b.index, 'tokens', b.tokens::text, 'bought', b.bought::text,
            'sold', b.sold::text, 'gas', b.gas::text, 'block', b.block::text,
            'buyHash', b.buy_hash, 'sellHash', b.sell_hash,
            'createdAt', b.created_at::text, 'doneAt', b.done_at::text
          ) order by b.index), '[]'::json)
          from ${bumps} b where b.bumper_id = ${bumpers}.id and b.status = 'done')`,
      })
      .from(bumpers)
      .where(and(eq(bumpers.id, id), eq(bumpers.ownerId, ownerId)));
    if (!found) return undefined;
    return {
      row: found.row,
      live: found.live,
      totals: { gas: BigInt(found.totals.gas), volume: BigInt(found.totals.volume) },
      bumps: found.bumps.map(fromJsonBump),
    };
  }

  async byId(id: string): Promise<BumperRow | undefined> {
    const [row] = await this.db.select().from(bumpers).where(eq(bumpers.id, id));
    return row;
  }

  /** One page of the owner's bumpers in `statuses` (every one without), newest first. */
  async page(
    ownerId: string,
    statuses: readonly BumperRow["status"][] | undefined,
    limit: number,
    offset: number,
  ): Promise<BumperRow[]> {
    return this.db
      .select()
      .from(bumpers)
      .where(
        and(
          eq(bumpers.ownerId, ownerId),
          statuses ? inArray(bumpers.status, [...statuses]) : undefined,
        ),
      )
      .orderBy(desc(bumpers.createdAt), asc(bumpers.id))
      .limit(limit)
      .offset(offset);
  }

  /** How many of the owner's bumpers each tab lists: Active (ready, active), Completed (the rest). */
  async tabCounts(ownerId: string): Promise<{ active: number; completed: number }> {
    const [row] = await this.db
      .select({
        active: sql<number>`(count(*) filter (where ${bumpers.status} in ('ready', 'active')))::int`,
        completed: sql<number>`(count(*) filter (where ${bumpers.status} in ('stopped', 'completed')))::int`,
      })
      .from(bumpers)
      .where(eq(bumpers.ownerId, ownerId));
    return { active: row?.active ?? 0, completed: row?.completed ?? 0 };
  }

  /** The owner's bumpers generated or running (what the quota counts), read in `tx`. */
  async countActive(ownerId: string, tx: Db | Tx = this.db): Promise<number> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(bumpers)
      .where(and(eq(bumpers.ownerId, ownerId), inArray(bumpers.status, ["ready", "active"])));
    return row?.n ?? 0;
  }

  /** Bumpers with work now: active and due, or with a bump on its way (whatever their state). */
  async due(now: Date): Promise<BumperRow[]> {
    return this.db
      .select()
      .from(bumpers)
      .where(
        or(
          isDue(now),
          sql`exists (select 1 from ${bumps} where ${bumps.bumperId} = ${bumpers.id} and ${bumps.status} in ('trading', 'moving'))`,
        ),
      );
  }

  async update(id: string, values: Partial<typeof bumpers.$inferInsert>, tx: Db | Tx = this.db) {
    const [row] = await tx.update(bumpers).set(values).where(eq(bumpers.id, id)).returning();
    return row;
  }

  /** Moves a bumper from one of `from` to `to`; answers the row, or undefined when it was not in `from`. */
  async transition(
    id: string,
    from: BumperRow["status"][],
    values: Partial<typeof bumpers.$inferInsert> & { status: BumperRow["status"] },
    tx: Db | Tx = this.db,
  ): Promise<BumperRow | undefined> {
    const [row] = await tx
      .update(bumpers)
      .set(values)
      .where(and(eq(bumpers.id, id), inArray(bumpers.status, from)))
      .returning();
    return row;
  }

  async wallets(bumperId: string): Promise<BumperWalletRow[]> {
    return this.db
      .select()
      .from(bumperWallets)
      .where(eq(bumperWallets.bumperId, bumperId))
      .orderBy(asc(bumperWallets.index));
  }

  /**
   * Each bumper's current wallet and, while a bump moves its BNB on, the next one: together
   * they hold the bumper's BNB at every moment of a bump.
   */
  async liveWallets(bumperIds: string[]): Promise<BumperWalletRow[]> {
    if (bumperIds.length === 0) return [];
    return this.db
      .select({
        bumperId: bumperWallets.bumperId,
        index: bumperWallets.index,
        address: bumperWallets.address,
        createdAt: bumperWallets.createdAt,
      })
      .from(bumperWallets)
      .innerJoin(bumpers, eq(bumpers.id, bumperWallets.bumperId))
      .where(
        and(
          inArray(bumperWallets.bumperId, bumperIds),
          sql`${bumperWallets.index} between ${bumpers.currentWalletIndex} and ${bumpers.currentWalletIndex} + 1`,
        ),
      )
      .orderBy(asc(bumperWallets.index));
  }

  async walletAt(bumperId: string, index: number): Promise<BumperWalletRow | undefined> {
    const [row] = await this.db
      .select()
      .from(bumperWallets)
      .where(and(eq(bumperWallets.bumperId, bumperId), eq(bumperWallets.index, index)));
    return row;
  }

  /** Adds wallet `index` (its key stored in `tx` by the caller); false when it exists already. */
  async addWallet(tx: Tx, bumperId: string, index: number, address: string): Promise<boolean> {
    const rows = await tx
      .insert(bumperWallets)
      .values({ bumperId, index, address })
      .onConflictDoNothing()
      .returning();
    return rows.length > 0;
  }

  async openBump(bumperId: string): Promise<BumpRow | undefined> {
    const [row] = await this.db
      .select()
      .from(bumps)
      .where(and(eq(bumps.bumperId, bumperId), OPEN_BUMP));
    return row;
  }

  /**
   * Starts bump `index` (at most once: a second start of the same bump answers undefined). A
   * bump that failed (its bumper stopped) starts again when its bumper was started again, with
   * its attempts at the next multiple of `attemptsPerStart`: new transaction keys, and a fresh
   * count before it gives up.
   */
  async startBump(bumperId: string, index: number, walletIndex: number, attemptsPerStart: number) {
    const [row] = await this.db
      .insert(bumps)
      .values({ bumperId, index, walletIndex })
      .onConflictDoUpdate({
        target: [bumps.bumperId, bumps.index],
        set: {
          status: "trading",
          error: null,
          walletIndex,
          attempt: sql`(${bumps.attempt} / ${attemptsPerStart} + 1) * ${attemptsPerStart}`,
        },
        setWhere: eq(bumps.status, "failed"),
      })
      .returning();
    return row;
  }

  async updateBump(bumperId: string, index: number, values: Partial<typeof bumps.$inferInsert>) {
    const [row] = await this.db
      .update(bumps)
      .set(values)
      .where(and(eq(bumps.bumperId, bumperId), eq(bumps.index, index)))
      .returning();
    return row as BumpRow;
  }

  async bumps(bumperId: string): Promise<BumpRow[]> {
    return this.db
      .select()
      .from(bumps)
      .where(eq(bumps.bumperId, bumperId))
      .orderBy(asc(bumps.index));
  }

  /** Gas (with tips) and volume (buys + sells) of every bump done, per bumper, wei. */
  async totals(bumperIds: string[]): Promise<Map<string, { gas: bigint; volume: bigint }>> {
    const totals = new Map<string, { gas: bigint; volume: bigint }>();
    if (bumperIds.length === 0) return totals;
    const rows = await this.db
      .select({
        bumperId: bumps.bumperId,
        gas: GAS,
        volume: VOLUME,
      })
      .from(bumps)
      .where(inArray(bumps.bumperId, bumperIds))
      .groupBy(bumps.bumperId);
    for (const row of rows)
      totals.set(row.bumperId, { gas: BigInt(row.gas), volume: BigInt(row.volume) });
    return totals;
  }

  /**
   * Finishes bump `index` and counts it on its bumper in one transaction: the next wallet is
   * current, the next bump due an interval from now, and the bumper completed at its last.
   */
  async finishBump(
    bumper: BumperRow,
    index: number,
    nextWalletIndex: number,
    gas: bigint,
    intervalMs: number,
  ): Promise<BumperRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [bump] = await tx
        .update(bumps)
        .set({ status: "done", gas: gas.toString(), doneAt: new Date() })
        .where(
          and(eq(bumps.bumperId, bumper.id), eq(bumps.index, index), eq(bumps.status, "moving")),
        )
        .returning();
      if (!bump) return undefined;
      const now = new Date();
      const last = sql`${bumpers.bumpsCompleted} + 1 >= ${bumpers.totalBumps}`;
      const [row] = await tx
        .update(bumpers)
        .set({
          bumpsCompleted: sql`${bumpers.bumpsCompleted} + 1`,
          currentWalletIndex: nextWalletIndex,
          lastBumpAt: now,
          nextBumpAt: sql`case when ${last} then null else ${new Date(now.getTime() + intervalMs).toISOString()}::timestamptz end`,
          status: sql`case when ${last} then 'completed' else ${bumpers.status} end`,
        })
        .where(eq(bumpers.id, bumper.id))
        .returning();
      return row;
    });
  }
}
