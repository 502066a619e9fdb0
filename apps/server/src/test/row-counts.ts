import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../db/client.ts";
import * as schema from "../db/schema.ts";

/**
 * Tables whose rows move without any request of a user's making: the block watcher's position,
 * the rate limits' counters (Postgres counts every request there, a refused one too) and what
 * the auto-sell pass reads off the chain (outside flows and how far it read). Every other table
 * of the schema holds what users (or admins) did.
 */
const MACHINERY = new Set(["chain_cursors", "rate_limits", "autosell_flows", "autosell_scans"]);

/** Every table of the drizzle schema that holds user data: a new table is counted unasked. */
export const userDataTables = (): string[] =>
  (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => getTableName(table))
    .filter((name) => !MACHINERY.has(name))
    .sort();

/**
 * How many rows each table holding user data has: equal before and after a refused request
 * means it wrote nothing.
 */
export const rowCounts = async (db: Db): Promise<Record<string, number>> => {
  const counts = userDataTables().map(
    (name) =>
      sql`select ${name}::text as name, count(*)::int as count from ${sql.identifier(name)}`,
  );
  const { rows } = await db.execute(sql.join(counts, sql` union all `));
  return Object.fromEntries(
    (rows as Array<{ name: string; count: number }>).map((row) => [row.name, row.count]),
  );
};
