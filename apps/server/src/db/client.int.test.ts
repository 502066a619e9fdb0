import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../test/database.ts";
import { type Database, LOCK_CONNECTIONS } from "./client.ts";

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

describe("locks", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());

  it("answers a lock attempt at once while every lock connection holds a lock (busy on Postgres), never waiting for one", async () => {
    const held = await Promise.all(
      Array.from({ length: LOCK_CONNECTIONS }, (_, i) => database.tryLock(`held:${i}`)),
    );
    expect(held.every((release) => release !== null)).toBe(true);
    try {
      const started = Date.now();
      const waited = Symbol("waited");
      const answer = await Promise.race([
        database.tryLock("one more"),
        new Promise<typeof waited>((resolve) => setTimeout(() => resolve(waited), 3_000)),
      ]);
      expect(answer).not.toBe(waited);
      expect(Date.now() - started).toBeLessThan(1_000);
      // Postgres keeps a connection per held lock, and there are no more; PGlite keeps none.
      if (database.kind === "postgres") expect(answer).toBeNull();
      else await (answer as () => Promise<void>)();
    } finally {
      for (const release of held) await release?.();
    }
  });
});
