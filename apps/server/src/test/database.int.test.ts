import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "./database.ts";
import { newTestDatabaseName, STALE_TEST_DATABASE_MS } from "./database-name.ts";

const baseUrl = process.env.DATABASE_URL;
let admin: pg.Client;
const names = () =>
  admin
    .query<{ datname: string }>("SELECT datname FROM pg_database")
    .then((result) => result.rows.map((row) => row.datname));

// Only Postgres keeps databases between runs; the embedded one lives in memory.
describe.skipIf(!baseUrl)("test databases on Postgres", () => {
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
  });
  afterAll(() => admin?.end());

  it("drops one left behind by a crash once it is two hours old, and keeps younger ones", async () => {
    const stale = newTestDatabaseName(Date.now() - STALE_TEST_DATABASE_MS - 60_000, "deadbeef");
    const young = newTestDatabaseName(Date.now() - STALE_TEST_DATABASE_MS / 2, "cafebabe");
    await admin.query(`CREATE DATABASE ${stale}`);
    await admin.query(`CREATE DATABASE ${young}`);
    try {
      const database = await createTestDatabase();
      await database.close();
      const after = await names();
      expect(after).not.toContain(stale);
      expect(after).toContain(young);
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${stale} WITH (FORCE)`);
      await admin.query(`DROP DATABASE IF EXISTS ${young} WITH (FORCE)`);
    }
  });
});
