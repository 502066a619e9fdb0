import { getTableName, is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client.ts";
import * as schema from "../db/schema.ts";
import { createTestDatabase } from "./database.ts";
import { rowCounts, userDataTables } from "./row-counts.ts";

describe("rowCounts", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("counts every table of the schema but the block watcher's position", () => {
    const all = (Object.values(schema) as unknown[])
      .filter((value): value is PgTable => is(value, PgTable))
      .map((table) => getTableName(table));
    expect(userDataTables()).toEqual(all.filter((name) => name !== "chain_cursors").sort());
  });

  it("sees a row written to any of them", async () => {
    const before = await rowCounts(database.db);
    await database.db.insert(schema.users).values({ keyHash: "f".repeat(64), keyPrefix: "ffffff" });
    const after = await rowCounts(database.db);
    expect(after).toEqual({ ...before, users: (before.users ?? 0) + 1 });
  });
});
