import type { NewsItem } from "@bundler/shared";
import { desc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { news } from "../../db/schema.ts";

export class NewsRepository {
  constructor(private readonly db: Db) {}

  async listActive(): Promise<NewsItem[]> {
    const rows = await this.db
      .select()
      .from(news)
      .where(eq(news.active, true))
      .orderBy(desc(news.date))
      .limit(10);
    return rows.map((row) => ({
      id: row.id,
      content: row.content,
      label: row.label,
      labelColor: row.labelColor,
      date: row.date.toISOString(),
    }));
  }

  /** Adds an item unless one with that id exists. */
  async add(item: Omit<NewsItem, "date">): Promise<void> {
    await this.db.insert(news).values(item).onConflictDoNothing();
  }
}
