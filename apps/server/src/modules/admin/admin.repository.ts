import type { AdminSortField, SortDirection } from "@bundler/shared";
import { and, asc, count, desc, eq, gte, isNull, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { drafts, launches, payments, users } from "../../db/schema.ts";
import { userSearchFilter } from "./admin-user-search.ts";

/** A user as the admin list shows it: their launches counted, their paid payments summed (wei). */
export interface AdminUserRecord {
  id: string;
  keyPrefix: string;
  deviceId: string | null;
  role: "user" | "admin" | "superadmin";
  isActive: boolean;
  referredBy: string | null;
  launchCount: number;
  totalSpent: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** Statistics, users and their history for the admin dashboard: reads only. */
export class AdminRepository {
  constructor(readonly db: Db) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  private userRows() {
    const launched = this.db
      .select({ ownerId: launches.ownerId, n: sql<number>`count(*)::int`.as("n") })
      .from(launches)
      .groupBy(launches.ownerId)
      .as("launched");
    const spent = this.db
      .select({
        ownerId: payments.ownerId,
        total: sql<string>`sum(${payments.amount})`.as("total"),
      })
      .from(payments)
      .where(eq(payments.status, "paid"))
      .groupBy(payments.ownerId)
      .as("spent");
    const launchCount = sql<number>`coalesce(${launched.n}, 0)::int`;
    const totalSpent = sql<string>`coalesce(${spent.total}, 0)`;
    const query = this.db
      .select({
        id: users.id,
        keyPrefix: users.keyPrefix,
        deviceId: users.deviceId,
        role: users.role,
        isActive: users.isActive,
        referredBy: users.referredBy,
        launchCount,
        totalSpent: sql<string>`${totalSpent}::text`,
        createdAt: users.createdAt,
        lastUsedAt: users.lastUsedAt,
      })
      .from(users)
      .leftJoin(launched, eq(launched.ownerId, users.id))
      .leftJoin(spent, eq(spent.ownerId, users.id));
    return { query, launchCount, totalSpent };
  }

  /**
   * One page of users sorted by the server over all of them (ties: newest first, then id),
   * only those `search` names when given (see userSearchFilter).
   */
  async usersPage(
    sortField: AdminSortField,
    direction: SortDirection,
    limit: number,
    offset: number,
    search?: string,
  ): Promise<{ users: AdminUserRecord[]; total: number }> {
    const filter = search ? userSearchFilter(search) : undefined;
    const { query, launchCount, totalSpent } = this.userRows();
    const column: Record<AdminSortField, SQL | typeof users.keyPrefix> = {
      key: users.keyPrefix,
      role: sql`case ${users.role} when 'user' then 0 when 'admin' then 1 else 2 end`,
      isActive: sql`${users.isActive}`,
      launchCount,
      totalSpent,
    };
    const by = direction === "asc" ? asc : desc;
    const [rows, [total]] = await Promise.all([
      query
        .where(filter)
        .orderBy(by(column[sortField]), desc(users.createdAt), asc(users.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ n: count() }).from(users).where(filter),
    ]);
    return { users: rows, total: total?.n ?? 0 };
  }

  async user(id: string): Promise<AdminUserRecord | undefined> {
    const [row] = await this.userRows().query.where(eq(users.id, id)).limit(1);
    return row;
  }

  /** The user's row, locked until the transaction ends (a role or activation change). */
  async lockUser(tx: Tx, id: string) {
    const [row] = await tx
      .select({ id: users.id, role: users.role, isActive: users.isActive })
      .from(users)
      .where(eq(users.id, id))
      .for("update");
    return row;
  }

  /**
   * Serialises every change that could leave no active superadmin, across processes: two
   * superadmins demoting each other at once cannot both succeed.
   */
  async lockRoles(tx: Tx): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('admin-roles'))`);
  }

  async activeSuperadminsOtherThan(tx: Tx, id: string): Promise<number> {
    const [row] = await tx
      .select({ n: count() })
      .from(users)
      .where(
        and(eq(users.role, "superadmin"), eq(users.isActive, true), sql`${users.id} <> ${id}`),
      );
    return row?.n ?? 0;
  }

  async launchesOf(ownerId: string) {
    return this.db
      .select({
        id: launches.id,
        ticker: launches.ticker,
        tokenAddress: launches.tokenAddress,
        walletCount: sql<number>`jsonb_array_length(${launches.wallets})::int`,
        logoHash: drafts.logoHash,
        createdAt: launches.createdAt,
      })
      .from(launches)
      .leftJoin(drafts, eq(drafts.id, launches.draftId))
      .where(eq(launches.ownerId, ownerId))
      .orderBy(desc(launches.createdAt));
  }

  /** Every draft of a user (deleted ones too), with its current or else latest payment. */
  async draftsOf(ownerId: string) {
    const latest = sql`(select p.id from ${payments} p where p.draft_id = ${drafts.id} order by p.created_at desc limit 1)`;
    return this.db
      .select({
        id: drafts.id,
        name: sql<string>`coalesce(${drafts.tokenInfo}->>'name', '')`,
        symbol: sql<string>`coalesce(${drafts.tokenInfo}->>'symbol', '')`,
        status: drafts.status,
        paymentAddress: payments.address,
        paymentAmount: payments.amount,
        deletedAt: drafts.deletedAt,
        createdAt: drafts.createdAt,
      })
      .from(drafts)
      .leftJoin(payments, eq(payments.id, sql`coalesce(${drafts.paymentId}, ${latest})`))
      .where(eq(drafts.ownerId, ownerId))
      .orderBy(desc(drafts.createdAt));
  }

  /** The payment address of a draft: its current payment, else its latest. */
  async paymentAddressOf(draftId: string, tx: Tx): Promise<string | undefined> {
    const [row] = await tx
      .select({ address: payments.address, current: drafts.paymentId, id: payments.id })
      .from(payments)
      .innerJoin(drafts, eq(drafts.id, payments.draftId))
      .where(eq(payments.draftId, draftId))
      .orderBy(
        sql`coalesce(${payments.id} = ${drafts.paymentId}, false) desc`,
        desc(payments.createdAt),
      )
      .limit(1);
    return row?.address;
  }

  async draftExists(draftId: string, tx: Tx): Promise<boolean> {
    const [row] = await tx
      .select({ id: drafts.id })
      .from(drafts)
      .where(eq(drafts.id, draftId))
      .limit(1);
    return row !== undefined;
  }

  async counts() {
    const [[u], [l], [d], revenue] = await Promise.all([
      this.db
        .select({
          total: count(),
          active: sql<number>`count(*) filter (where ${users.isActive})::int`,
          admins: sql<number>`count(*) filter (where ${users.role} = 'admin')::int`,
          superadmins: sql<number>`count(*) filter (where ${users.role} = 'superadmin')::int`,
        })
        .from(users),
      this.db.select({ total: count() }).from(launches),
      this.db
        .select({
          total: count(),
          paid: sql<number>`count(*) filter (where ${drafts.status} in ('paid', 'executing', 'executed'))::int`,
          executed: sql<number>`count(*) filter (where ${drafts.status} = 'executed')::int`,
        })
        .from(drafts)
        .where(isNull(drafts.deletedAt)),
      this.db
        .select({ kind: payments.kind, total: sql<string>`sum(${payments.amount})::text` })
        .from(payments)
        .where(eq(payments.status, "paid"))
        .groupBy(payments.kind),
    ]);
    return {
      users: u ?? { total: 0, active: 0, admins: 0, superadmins: 0 },
      launches: l?.total ?? 0,
      drafts: d ?? { total: 0, paid: 0, executed: 0 },
      revenue: new Map(revenue.map((row) => [row.kind, BigInt(row.total)])),
    };
  }

  /** Launches and credited revenue (wei) per UTC day since `since`. */
  async daily(since: Date) {
    const launchDay = sql<string>`to_char(${launches.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
    const paidDay = sql<string>`to_char(${payments.paidAt} at time zone 'UTC', 'YYYY-MM-DD')`;
    const [launched, paid] = await Promise.all([
      this.db
        .select({ day: launchDay, n: sql<number>`count(*)::int` })
        .from(launches)
        .where(gte(launches.createdAt, since))
        .groupBy(launchDay),
      this.db
        .select({ day: paidDay, total: sql<string>`sum(${payments.amount})::text` })
        .from(payments)
        .where(and(eq(payments.status, "paid"), gte(payments.paidAt, since)))
        .groupBy(paidDay),
    ]);
    return {
      launches: new Map(launched.map((row) => [row.day, row.n])),
      revenue: new Map(paid.map((row) => [row.day, BigInt(row.total)])),
    };
  }
}
