import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gte,
  inArray,
  like,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { chainTxFormerKeys, chainTxs, type TX_STATUSES } from "../../db/schema.ts";

export type TxRow = typeof chainTxs.$inferSelect;
/**
 * A transaction without its signed bytes and bookkeeping times: what a caller deciding its
 * next step reads. A dispersal's passes and its status poll read thousands of these, and the
 * raw bytes were most of what crossed from the database.
 */
export type TxSummary = Omit<TxRow, "rawTx" | "updatedAt" | "lastBroadcastAt">;
/** An open transaction as a reconcile pass reads it: everything but the signed bytes. */
export type OpenTx = Omit<TxRow, "rawTx">;
const { rawTx: _raw, ...openColumns } = getTableColumns(chainTxs);
const { updatedAt: _updated, lastBroadcastAt: _broadcast, ...summaryColumns } = openColumns;
export type NewTxRow = typeof chainTxs.$inferInsert;
export type TxStatusValue = (typeof TX_STATUSES)[number];

/** Not final yet: the chain may still mine it. */
export const OPEN_STATUSES: TxStatusValue[] = ["signed", "sent"];
/** Hold their nonce on the chain or in our books: no second live transaction may take it. */
const LIVE_STATUSES: TxStatusValue[] = ["signed", "sent", "mined", "reverted"];

/** A Postgres array literal of plain strings (addresses, keys: no quotes or backslashes). */
const toTextArray = (values: string[]) => `{${values.join(",")}}`;

/** How long a dropped transaction is watched after its last broadcast (geth's pool keeps 3 h). */
export const WATCH_DROPPED_HOURS = 24;

export const isFinal = (status: TxStatusValue): boolean => !OPEN_STATUSES.includes(status);

const isOpen = () => inArray(chainTxs.status, OPEN_STATUSES);
const isWatchedDropped = () =>
  and(
    eq(chainTxs.status, "dropped"),
    sql`${chainTxs.lastBroadcastAt} > now() - make_interval(hours => ${WATCH_DROPPED_HOURS})`,
  );

/** A reconcile pass has work: an open transaction, or a dropped one still watched. */
export const reconcileDue = (): SQL =>
  sql`exists (select 1 from ${chainTxs} where ${or(isOpen(), isWatchedDropped())})`;

export type DbOrTx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

export class TransactionsRepository {
  constructor(readonly db: Db) {}

  /**
   * Runs `work` in one database transaction holding a lock per sending address (taken in a
   * fixed order, so two callers never deadlock): nonces are handed out under it.
   */
  async underAddressLocks<T>(addresses: string[], work: (tx: DbOrTx) => Promise<T>): Promise<T> {
    const sorted = [...new Set(addresses)].sort();
    return this.db.transaction(async (tx) => {
      // One statement takes them all, in the sorted order (a thousand round trips otherwise).
      if (sorted.length > 0)
        await tx.execute(sql`
          select pg_advisory_xact_lock(hashtext(k)) from (
            select 'chain-tx:' || a as k from unnest(${toTextArray(sorted)}::text[]) as a order by a
          ) keys`);
      return work(tx);
    });
  }

  /**
   * The transactions recorded under `keys`, each answered under the key asked: a key a
   * transaction was recorded under before it was signed again for another key
   * (`retakeDropped`) finds it as well, so a request always finds what it recorded.
   */
  async byKeys(keys: string[], tx: DbOrTx = this.db): Promise<TxRow[]> {
    if (keys.length === 0) return [];
    const current = await tx.select().from(chainTxs).where(inArray(chainTxs.key, keys));
    const former = await tx
      .select({ row: chainTxs, key: chainTxFormerKeys.key })
      .from(chainTxFormerKeys)
      .innerJoin(chainTxs, eq(chainTxs.id, chainTxFormerKeys.txId))
      .where(inArray(chainTxFormerKeys.key, keys));
    return [...current, ...former.map(({ row, key }) => ({ ...row, key }))];
  }

  /**
   * The attempt recorded under `key` and every attempt it retries, back to the first (each
   * row's `retriesId`), newest first.
   */
  async attemptsFrom(key: string, tx: DbOrTx = this.db): Promise<TxRow[]> {
    const attempts: TxRow[] = [];
    let [row] = await this.byKeys([key], tx);
    const seen = new Set<string>();
    while (row && !seen.has(row.id)) {
      seen.add(row.id);
      attempts.push(row);
      const earlier = row.retriesId;
      row = earlier
        ? (await tx.select().from(chainTxs).where(eq(chainTxs.id, earlier)))[0]
        : undefined;
    }
    return attempts;
  }

  /**
   * Every transaction recorded under a key that starts with `prefix`, now or before it was
   * signed again for another key (answered under that earlier key, as `byKeys` does).
   */
  async byKeyPrefix(prefix: string): Promise<TxRow[]> {
    const pattern = `${prefix.replaceAll("%", "\\%").replaceAll("_", "\\_")}%`;
    const current = await this.db
      .select()
      .from(chainTxs)
      .where(like(chainTxs.key, pattern))
      .orderBy(asc(chainTxs.createdAt), asc(chainTxs.nonce));
    const former = await this.db
      .select({ row: chainTxs, key: chainTxFormerKeys.key })
      .from(chainTxFormerKeys)
      .innerJoin(chainTxs, eq(chainTxs.id, chainTxFormerKeys.txId))
      .where(like(chainTxFormerKeys.key, pattern));
    if (former.length === 0) return current;
    return [...current, ...former.map(({ row, key }) => ({ ...row, key }))].sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.nonce - b.nonce,
    );
  }

  async bySubjects(subjects: string[]): Promise<TxSummary[]> {
    if (subjects.length === 0) return [];
    return this.db
      .select(summaryColumns)
      .from(chainTxs)
      .where(inArray(chainTxs.subject, subjects))
      .orderBy(asc(chainTxs.createdAt), asc(chainTxs.nonce));
  }

  /**
   * `bySubjects`, except that of each step sequence only the steps from the newest mined one
   * on are answered. Keys ending in `:{n}` form a sequence with the rest of the key
   * (`dispersal:{id}:{leg}:3` is step 3 of `dispersal:{id}:{leg}`), and a caller creates step
   * n + 1 only after step n (it may be signed ahead, waiting for it): so a step is superseded
   * exactly when it is mined and the key of the next one exists (one index probe each, in the
   * database). Keys of any other form are all answered. A dispersal of 500 chains has 5,500
   * transfers at its end, and the next move of each chain depends on its newest ones only.
   */
  async latestStepsBySubjects(subjects: string[]): Promise<TxSummary[]> {
    if (subjects.length === 0) return [];
    return this.db
      .select(summaryColumns)
      .from(chainTxs)
      .where(
        and(
          inArray(chainTxs.subject, subjects),
          sql`not (${chainTxs.status} = 'mined' and ${chainTxs.key} ~ ':[0-9]+$' and exists (
            select 1 from ${chainTxs} as next_step where next_step.key =
              regexp_replace(${chainTxs.key}, '[0-9]+$', '') ||
              (substring(${chainTxs.key} from '([0-9]+)$')::int + 1)::text))`,
        ),
      )
      .orderBy(asc(chainTxs.createdAt), asc(chainTxs.nonce));
  }

  /**
   * Transactions sent from any of `addresses` (checksummed) at or above each one's nonce in
   * `from` that are open or landed: what was sent since those nonces were read.
   */
  async liveFrom(tx: DbOrTx, from: Map<string, number>): Promise<OpenTx[]> {
    if (from.size === 0) return [];
    const rows = await tx
      .select(openColumns)
      .from(chainTxs)
      .where(
        and(
          inArray(chainTxs.from, [...from.keys()]),
          inArray(chainTxs.status, LIVE_STATUSES),
          gte(chainTxs.nonce, Math.min(...from.values())),
        ),
      );
    return rows.filter((row) => row.nonce >= (from.get(row.from) ?? 0));
  }

  async byHashes(hashes: string[]): Promise<TxRow[]> {
    if (hashes.length === 0) return [];
    return this.db.select().from(chainTxs).where(inArray(chainTxs.txHash, hashes));
  }

  /** One owner's transactions from or to `address` (checksummed), newest first. */
  async involving(address: string, ownerId: string, limit: number): Promise<TxRow[]> {
    return this.db
      .select()
      .from(chainTxs)
      .where(
        and(
          eq(chainTxs.ownerId, ownerId),
          or(eq(chainTxs.from, address), eq(chainTxs.to, address)),
        ),
      )
      .orderBy(desc(chainTxs.createdAt), desc(chainTxs.nonce))
      .limit(limit);
  }

  /** The nonces at or above `from` that live transactions of `address` hold. */
  /** `liveNonces` of many addresses in one read: each address's nonces from its `from` on. */
  async liveNoncesOf(tx: DbOrTx, from: Map<string, number>): Promise<Map<string, Set<number>>> {
    const taken = new Map([...from.keys()].map((address) => [address, new Set<number>()]));
    if (from.size === 0) return taken;
    const rows = await tx
      .select({ from: chainTxs.from, nonce: chainTxs.nonce })
      .from(chainTxs)
      .where(
        and(inArray(chainTxs.from, [...from.keys()]), inArray(chainTxs.status, LIVE_STATUSES)),
      );
    for (const row of rows)
      if (row.nonce >= (from.get(row.from) ?? 0)) taken.get(row.from)?.add(row.nonce);
    return taken;
  }

  async insert(tx: DbOrTx, rows: NewTxRow[]): Promise<TxRow[]> {
    if (rows.length === 0) return [];
    return tx.insert(chainTxs).values(rows).returning();
  }

  /** Which of these hashes a dropped row holds. */
  async droppedHashes(tx: DbOrTx, hashes: string[]): Promise<Set<string>> {
    if (hashes.length === 0) return new Set();
    const rows = await tx
      .select({ txHash: chainTxs.txHash })
      .from(chainTxs)
      .where(and(inArray(chainTxs.txHash, hashes), eq(chainTxs.status, "dropped")));
    return new Set(rows.map((row) => row.txHash));
  }

  /**
   * Records `row` on the dropped row holding the very same signed transaction (same hash), as
   * if it were new: its key, owner, window and status now the new record's, its earlier key
   * kept as a former key (`byKeys` finds it by either). Answers nothing when no dropped row
   * holds that hash.
   */
  async retakeDropped(tx: DbOrTx, row: NewTxRow): Promise<TxRow | undefined> {
    const [before] = await tx
      .select({ id: chainTxs.id, key: chainTxs.key })
      .from(chainTxs)
      .where(and(eq(chainTxs.txHash, row.txHash), eq(chainTxs.status, "dropped")));
    if (!before) return undefined;
    if (before.key !== row.key)
      await tx
        .insert(chainTxFormerKeys)
        .values({ key: before.key, txId: before.id })
        .onConflictDoNothing();
    const [taken] = await tx
      .update(chainTxs)
      .set({
        ...row,
        status: "signed",
        error: null,
        blockNumber: null,
        fee: null,
        broadcasts: 0,
        lastBroadcastAt: null,
        createdAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(chainTxs.txHash, row.txHash), eq(chainTxs.status, "dropped")))
      .returning();
    return taken;
  }

  async open(): Promise<OpenTx[]> {
    return this.db
      .select(openColumns)
      .from(chainTxs)
      .where(isOpen())
      .orderBy(asc(chainTxs.from), asc(chainTxs.nonce));
  }

  /** The status of each of these transactions, by id. */
  async statusesOf(ids: string[]): Promise<Map<string, TxStatusValue>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: chainTxs.id, status: chainTxs.status })
      .from(chainTxs)
      .where(inArray(chainTxs.id, [...new Set(ids)]));
    return new Map(rows.map((row) => [row.id, row.status]));
  }

  /** The signed bytes of these transactions, by id. */
  async rawTxs(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({ id: chainTxs.id, rawTx: chainTxs.rawTx })
      .from(chainTxs)
      .where(inArray(chainTxs.id, ids));
    return new Map(rows.map((row) => [row.id, row.rawTx]));
  }

  /**
   * Dropped transactions that may still land: broadcast at some point (a node may hold them,
   * or pass them on) within `WATCH_DROPPED_HOURS`, the longest a node's pool keeps one. Each
   * reconcile reads them until their nonce shows what happened.
   */
  async watchedDropped(): Promise<OpenTx[]> {
    return this.db.select(openColumns).from(chainTxs).where(isWatchedDropped());
  }

  /** Records a broadcast attempt; `accepted` moves a signed row to sent. */
  async broadcasted(ids: string[], accepted: boolean, error: string | null): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(chainTxs)
      .set({
        ...(accepted ? { status: "sent" as const } : {}),
        broadcasts: sql`${chainTxs.broadcasts} + ${accepted ? 1 : 0}`,
        lastBroadcastAt: sql`now()`,
        error,
        updatedAt: sql`now()`,
      })
      .where(and(inArray(chainTxs.id, ids), inArray(chainTxs.status, OPEN_STATUSES)));
  }

  /** Notes on open rows why they may not land (their final state keeps it). */
  async noteError(ids: string[], error: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(chainTxs)
      .set({ error, updatedAt: sql`now()` })
      .where(and(inArray(chainTxs.id, ids), inArray(chainTxs.status, OPEN_STATUSES)));
  }

  /**
   * Moves open rows to a final state, once: answers the rows this call moved (another worker
   * that got there first moves none of them).
   */
  /** Mined rows back to sent, their block and fee forgotten (the block was dropped). */
  async reopen(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(chainTxs)
      .set({ status: "sent", blockNumber: null, fee: null, error: null, updatedAt: sql`now()` })
      .where(and(inArray(chainTxs.id, ids), eq(chainTxs.status, "mined")));
  }

  async finish(
    ids: string[],
    values: { status: TxStatusValue; error: string | null; blockNumber?: bigint; fee?: bigint },
    fromStatuses: TxStatusValue[] = OPEN_STATUSES,
  ): Promise<TxRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .update(chainTxs)
      .set({
        status: values.status,
        error: values.error,
        ...(values.blockNumber !== undefined ? { blockNumber: values.blockNumber } : {}),
        ...(values.fee !== undefined ? { fee: values.fee.toString() } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(inArray(chainTxs.id, ids), inArray(chainTxs.status, fromStatuses)))
      .returning();
  }
}
