import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../test/database.ts";
import type { Database } from "./client.ts";

const baseUrl = process.env.DATABASE_URL;

// Only Postgres has connections a server can lose; the embedded one lives in the process.
describe.skipIf(!baseUrl)("the Postgres connection pool", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());

  it("survives Postgres ending its idle connections (a restart, a failover) and keeps answering", async () => {
    const name = await database.db.execute<{ name: string }>(
      sql`SELECT current_database() AS name`,
    );
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    try {
      const ended = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
        [name.rows[0]?.name],
      );
      expect(ended.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // The pool hears of it on an idle client; without a listener that is an uncaught exception.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await database.db.execute<{ one: number }>(sql`SELECT 1 AS one`);
    expect(again.rows[0]?.one).toBe(1);
  });
});
