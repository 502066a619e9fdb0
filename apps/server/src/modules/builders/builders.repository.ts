import { and, eq, gte, inArray, isNotNull, isNull, lte, ne, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { builderSends } from "../../db/schema.ts";

export type BuilderSendRow = typeof builderSends.$inferSelect;
export type NewBuilderSend = typeof builderSends.$inferInsert;

/** A send the chain has not judged yet: a builder was asked, its tip has no outcome. */
const open = () => and(isNull(builderSends.outcome), ne(builderSends.answer, "skipped"));

/** A bundle a builder took that did not land, whose status service was not asked yet. */
const statusOpen = () =>
  and(
    eq(builderSends.answer, "accepted"),
    eq(builderSends.outcome, "not-landed"),
    isNotNull(builderSends.bundleHash),
    isNull(builderSends.statusAt),
  );

/** The status pass's condition: such a bundle of one of `builders`, sent before `before`. */
export const builderStatusesDue = (builders: readonly string[], delayMs: number) => (): SQL =>
  builders.length === 0
    ? sql`false`
    : sql`exists (select 1 from ${builderSends} where ${and(
        statusOpen(),
        inArray(builderSends.builder, [...builders]),
        lte(builderSends.sentAt, sql`now() - make_interval(secs => ${delayMs / 1000})`),
      )})`;

/** The landing pass's condition: a send still waits for the chain's word. */
export const builderSendsDue = (): SQL =>
  sql`exists (select 1 from ${builderSends} where ${open()})`;

/** A builder's reason, in its words, and how often it was given. */
export interface ReasonCount {
  builder: string;
  reason: string;
  count: number;
}

/** One builder's counts over a window, as the statistics read them. */
export interface BuilderCounts {
  builder: string;
  sent: number;
  accepted: number;
  refused: number;
  silent: number;
  skipped: number;
  landed: number;
  medianBlocks: number | null;
  p95Blocks: number | null;
}

/** The builders' answers to every bundle sent, and what the chain made of them. */
export class BuildersRepository {
  constructor(readonly db: Db) {}

  async insert(rows: NewBuilderSend[]): Promise<void> {
    if (rows.length > 0) await this.db.insert(builderSends).values(rows);
  }

  /** Sends still open, oldest window first. */
  open(limit: number): Promise<BuilderSendRow[]> {
    return this.db
      .select()
      .from(builderSends)
      .where(open())
      .orderBy(builderSends.maxBlockNumber)
      .limit(limit);
  }

  /** Records the chain's word on open sends: landed in a block, or not landed. */
  async resolve(
    landed: ReadonlyArray<{ id: string; block: bigint }>,
    notLanded: readonly string[],
  ): Promise<void> {
    for (const { id, block } of landed)
      await this.db
        .update(builderSends)
        .set({ outcome: "landed", landedBlock: block })
        .where(and(eq(builderSends.id, id), isNull(builderSends.outcome)));
    if (notLanded.length > 0)
      await this.db
        .update(builderSends)
        .set({ outcome: "not-landed" })
        .where(and(inArray(builderSends.id, [...notLanded]), isNull(builderSends.outcome)));
  }

  /** How many bundles of `builder` its status service was asked about since `since`. */
  async statusAsked(builder: string, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(builderSends)
      .where(and(eq(builderSends.builder, builder), gte(builderSends.statusAt, since)));
    return row?.n ?? 0;
  }

  /**
   * Bundles `builder` took that did not land and its status service was never asked about,
   * sent between `after` and `before`, oldest first.
   */
  statusDue(builder: string, after: Date, before: Date, limit: number): Promise<BuilderSendRow[]> {
    return this.db
      .select()
      .from(builderSends)
      .where(
        and(
          eq(builderSends.builder, builder),
          statusOpen(),
          gte(builderSends.sentAt, after),
          lte(builderSends.sentAt, before),
        ),
      )
      .orderBy(builderSends.sentAt)
      .limit(limit);
  }

  /** Keeps what a status service said of a send (asked once). */
  async recordStatus(
    id: string,
    said: Pick<BuilderSendRow, "status" | "statusReason">,
    at: Date,
  ): Promise<void> {
    await this.db
      .update(builderSends)
      .set({ ...said, statusAt: at })
      .where(and(eq(builderSends.id, id), isNull(builderSends.statusAt)));
  }

  /** Per builder since `since` (of one owner's bundles when given). */
  async counts(since: Date, ownerId?: string): Promise<BuilderCounts[]> {
    const blocks = sql`(${builderSends.landedBlock} - ${builderSends.headAtSend})`;
    const landed = sql`${builderSends.outcome} = 'landed'`;
    const n = (answer: string) =>
      sql<number>`(count(*) filter (where ${builderSends.answer} = ${answer}))::int`;
    return this.db
      .select({
        builder: builderSends.builder,
        sent: sql<number>`(count(*) filter (where ${builderSends.answer} <> 'skipped'))::int`,
        accepted: n("accepted"),
        refused: n("refused"),
        silent: n("silent"),
        skipped: n("skipped"),
        landed: sql<number>`(count(*) filter (where ${landed}))::int`,
        medianBlocks: sql<
          number | null
        >`(percentile_cont(0.5) within group (order by ${blocks}) filter (where ${landed}))::float8`,
        p95Blocks: sql<
          number | null
        >`(percentile_cont(0.95) within group (order by ${blocks}) filter (where ${landed}))::float8`,
      })
      .from(builderSends)
      .where(this.window(since, ownerId))
      .groupBy(builderSends.builder)
      .orderBy(builderSends.builder);
  }

  /** Bundles sent since `since`, and those of them that landed (each counted once). */
  async bundles(since: Date, ownerId?: string): Promise<{ bundles: number; landed: number }> {
    const [row] = await this.db
      .select({
        bundles: sql<number>`(count(distinct ${builderSends.bundleId}))::int`,
        landed: sql<number>`(count(distinct ${builderSends.bundleId}) filter (where ${builderSends.outcome} = 'landed'))::int`,
      })
      .from(builderSends)
      .where(this.window(since, ownerId));
    return { bundles: row?.bundles ?? 0, landed: row?.landed ?? 0 };
  }

  /** Each builder's refusals and silences since `since`, grouped by their words, most first. */
  refusals(since: Date, ownerId?: string): Promise<ReasonCount[]> {
    return this.reasons(
      builderSends.reason,
      and(this.window(since, ownerId), inArray(builderSends.answer, ["refused", "silent"])),
    );
  }

  /** What status services said of bundles their builder took that did not land, by words. */
  misses(since: Date, ownerId?: string): Promise<ReasonCount[]> {
    return this.reasons(
      builderSends.statusReason,
      and(this.window(since, ownerId), isNotNull(builderSends.statusAt)),
    );
  }

  /** The rows `where` picks, counted per builder and `words`, most frequent first. */
  private reasons(
    words: typeof builderSends.reason | typeof builderSends.statusReason,
    where: SQL | undefined,
  ): Promise<ReasonCount[]> {
    return this.db
      .select({
        builder: builderSends.builder,
        reason: sql<string>`coalesce(${words}, '')`,
        count: sql<number>`count(*)::int`,
      })
      .from(builderSends)
      .where(where)
      .groupBy(builderSends.builder, words)
      .orderBy(sql`count(*) desc`, words);
  }

  private window(since: Date, ownerId?: string) {
    return and(
      gte(builderSends.sentAt, since),
      ownerId ? eq(builderSends.ownerId, ownerId) : undefined,
    );
  }
}
