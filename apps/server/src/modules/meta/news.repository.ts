import type { AdminNewsItem, NewsItem } from "@bundler/shared";
import { desc, eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { news } from "../../db/schema.ts";

type NewsRow = typeof news.$inferSelect;
/** What an admin writes of an item. */
export type NewsFields = Pick<NewsRow, "content" | "label" | "labelColor">;

const present = (row: NewsRow): AdminNewsItem => ({
  id: row.id,
  content: row.content,
  label: row.label,
  labelColor: row.labelColor,
  date: row.date.toISOString(),
  active: row.active,
});

export class NewsRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** The banner's items: shown ones, newest first. */
  async listActive(): Promise<NewsItem[]> {
    const rows = await this.db
      .select()
      .from(news)
      .where(eq(news.active, true))
      .orderBy(desc(news.date))
      .limit(10);
    return rows.map(({ active: _active, ...row }) => ({ ...row, date: row.date.toISOString() }));
  }

  /** Every item, shown or hidden, newest first (the admin dashboard's list). */
  async listAll(): Promise<AdminNewsItem[]> {
    const rows = await this.db.select().from(news).orderBy(desc(news.date), desc(news.id));
    return rows.map(present);
  }

  /** Adds an item unless one with that id exists. */
  async add(item: Omit<NewsItem, "date">): Promise<void> {
    await this.db.insert(news).values(item).onConflictDoNothing();
  }

  async insert(tx: Tx, id: string, fields: NewsFields): Promise<AdminNewsItem> {
    const [row] = await tx
      .insert(news)
      .values({ id, ...fields })
      .returning();
    return present(row as NewsRow);
  }

  /** The item, locked until the transaction ends. */
  async lock(tx: Tx, id: string): Promise<AdminNewsItem | undefined> {
    const [row] = await tx.select().from(news).where(eq(news.id, id)).for("update");
    return row && present(row);
  }

  async update(
    tx: Tx,
    id: string,
    values: Partial<NewsFields> & { active?: boolean },
  ): Promise<AdminNewsItem> {
    const [row] = await tx.update(news).set(values).where(eq(news.id, id)).returning();
    return present(row as NewsRow);
  }
}
