import {
  and,
  count,
  desc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNull,
  lte,
  notInArray,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import {
  chainTxs,
  dispersalDeposits,
  dispersalLegs,
  dispersals,
  drafts,
  launches,
  paymentDeposits,
  payments,
} from "../../db/schema.ts";

export type DraftRow = typeof drafts.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type DraftStatusValue = DraftRow["status"];
/** A row as the list reads it: no logo, only whether there is one. */
export type ListedDraftRow = DraftRow & { hasLogo: boolean };
/** What deciding an expired draft's visibility reads: its addresses. */
export type AddressesRow = Pick<DraftRow, "id" | "deployerAddress" | "walletConfig">;

/** Statuses whose drafts expire (SPEC: unpaid drafts, and launched ones once emptied). */
const EXPIRING: DraftStatusValue[] = ["draft", "executed"];

export class DraftsRepository {
  constructor(readonly db: Db) {}

  /** Runs `work` in one transaction: every write given its `tx` commits or none does. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insert(values: typeof drafts.$inferInsert, tx?: Tx): Promise<DraftRow> {
    const [row] = await (tx ?? this.db).insert(drafts).values(values).returning();
    if (!row) throw new Error("draft insert returned nothing");
    return row;
  }

  /**
   * The owner's open drafts: waiting for or holding its payment, or not yet expired (an expired
   * draft is hidden from the list, so it must not hold a place either).
   */
  async countOpen(ownerId: string, tx: Tx): Promise<number> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(drafts)
      .where(
        and(
          eq(drafts.ownerId, ownerId),
          isNull(drafts.deletedAt),
          or(
            inArray(drafts.status, ["pending_payment", "paid"]),
            and(
              eq(drafts.status, "draft"),
              or(isNull(drafts.expiresAt), gt(drafts.expiresAt, sql`now()`)),
            ),
          ),
        ),
      );
    return row?.n ?? 0;
  }

  /** The owner's live draft, or undefined (another user's id reads as absent). */
  async findOwned(id: string, ownerId: string, tx?: Tx): Promise<DraftRow | undefined> {
    const [row] = await (tx ?? this.db)
      .select()
      .from(drafts)
      .where(and(eq(drafts.id, id), eq(drafts.ownerId, ownerId), isNull(drafts.deletedAt)))
      .limit(1);
    return row;
  }

  async findById(id: string): Promise<DraftRow | undefined> {
    const [row] = await this.db.select().from(drafts).where(eq(drafts.id, id)).limit(1);
    return row;
  }

  /** The owner's live drafts that have expired by `now`: only what deciding visibility needs. */
  async expiredOwned(ownerId: string, now: Date): Promise<AddressesRow[]> {
    return this.db
      .select({
        id: drafts.id,
        deployerAddress: drafts.deployerAddress,
        walletConfig: drafts.walletConfig,
      })
      .from(drafts)
      .where(
        and(
          eq(drafts.ownerId, ownerId),
          isNull(drafts.deletedAt),
          inArray(drafts.status, EXPIRING),
          lte(drafts.expiresAt, now),
        ),
      );
  }

  /**
   * One page of the owner's visible drafts (unexpired by `now`, or among `keep`), newest change
   * first, and how many there are in all. Rows come without the logo (`tokenInfo.image`): the
   * list links it by `logoHash`, and `hasLogo` says whether there is one.
   */
  async pageVisible(
    ownerId: string,
    { now, keep, limit, offset }: { now: Date; keep: string[]; limit: number; offset: number },
  ): Promise<{ rows: ListedDraftRow[]; total: number }> {
    const live = or(
      notInArray(drafts.status, EXPIRING),
      isNull(drafts.expiresAt),
      gt(drafts.expiresAt, now),
      keep.length > 0 ? inArray(drafts.id, keep) : undefined,
    );
    const where: SQL | undefined = and(eq(drafts.ownerId, ownerId), isNull(drafts.deletedAt), live);
    // The count rides on the page's rows (one query); only a page past the end asks it apart.
    const page = await this.db
      .select({
        ...getTableColumns(drafts),
        tokenInfo: sql`${drafts.tokenInfo} - 'image'`,
        // Any non-blank logo, as SPEC §5's readiness counts it.
        hasLogo: sql<boolean>`coalesce(${drafts.tokenInfo}->>'image', '') ~ '\\S'`,
        total: sql<number>`count(*) over ()`.mapWith(Number),
      })
      .from(drafts)
      .where(where)
      .orderBy(desc(drafts.updatedAt), desc(drafts.id))
      .limit(limit)
      .offset(offset);
    const rows = page.map(({ total: _, ...row }) => row);
    if (page[0]) return { rows, total: page[0].total };
    if (offset === 0) return { rows, total: 0 };
    const [counted] = await this.db.select({ total: count() }).from(drafts).where(where);
    return { rows, total: counted?.total ?? 0 };
  }

  /** The logo data URL of a live draft with this logo hash, if any. */
  async findLogo(hash: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ image: sql<string | null>`${drafts.tokenInfo}->>'image'` })
      .from(drafts)
      .where(and(eq(drafts.logoHash, hash), isNull(drafts.deletedAt)))
      .limit(1);
    return row?.image ?? undefined;
  }

  /** Writes only while the draft is in one of `statuses`; answers the row, or undefined. */
  async updateIf(
    id: string,
    ownerId: string,
    statuses: DraftStatusValue[],
    values: Partial<typeof drafts.$inferInsert>,
    tx?: Tx,
  ): Promise<DraftRow | undefined> {
    const [row] = await (tx ?? this.db)
      .update(drafts)
      .set({ ...values, updatedAt: sql`now()` })
      .where(
        and(
          eq(drafts.id, id),
          eq(drafts.ownerId, ownerId),
          isNull(drafts.deletedAt),
          inArray(drafts.status, statuses),
        ),
      )
      .returning();
    return row;
  }

  async setExpiresAt(ids: string[], expiresAt: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db.update(drafts).set({ expiresAt }).where(inArray(drafts.id, ids));
  }

  async paymentsByIds(ids: string[]): Promise<PaymentRow[]> {
    if (ids.length === 0) return [];
    return this.db.select().from(payments).where(inArray(payments.id, ids));
  }

  /**
   * Which of `addresses` (lowercase) a transaction or a dispersal ever touched: the sender or
   * receiver of a transaction the server signed, a dispersal's destination or funder, or the
   * sender of a payment or dispersal deposit.
   */
  async everUsed(addresses: string[], tx?: Tx): Promise<Set<string>> {
    const wanted = [...new Set(addresses.map((a) => a.toLowerCase()))];
    if (wanted.length === 0) return new Set();
    const list = sql.join(
      wanted.map((a) => sql`${a}`),
      sql`, `,
    );
    const found = await (tx ?? this.db).execute(sql`
      select lower(${chainTxs.from}) as address from ${chainTxs} where lower(${chainTxs.from}) in (${list})
      union select lower(${chainTxs.to}) from ${chainTxs} where lower(${chainTxs.to}) in (${list})
      union select lower(${dispersalLegs.destination}) from ${dispersalLegs}
        where lower(${dispersalLegs.destination}) in (${list})
      union select lower(${dispersals.funder}) from ${dispersals} where lower(${dispersals.funder}) in (${list})
      union select lower(${dispersalDeposits.from}) from ${dispersalDeposits}
        where lower(${dispersalDeposits.from}) in (${list})
      union select lower(${paymentDeposits.from}) from ${paymentDeposits}
        where lower(${paymentDeposits.from}) in (${list})`);
    return new Set(found.rows.map((row) => String((row as { address: string }).address)));
  }

  /** The tokens the owner's launches created. */
  async ownerTokens(ownerId: string, tx?: Tx): Promise<string[]> {
    const rows = await (tx ?? this.db)
      .selectDistinct({ tokenAddress: launches.tokenAddress })
      .from(launches)
      .where(eq(launches.ownerId, ownerId));
    return rows.map((row) => row.tokenAddress);
  }

  async launchTokens(
    draftIds: string[],
  ): Promise<Array<{ draftId: string; tokenAddress: string }>> {
    if (draftIds.length === 0) return [];
    return this.db
      .select({ draftId: launches.draftId, tokenAddress: launches.tokenAddress })
      .from(launches)
      .where(inArray(launches.draftId, draftIds));
  }
}
