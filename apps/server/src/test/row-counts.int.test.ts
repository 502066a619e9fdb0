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

  it("counts every table of the schema but the machinery's (cursors, rate limits, chain reads)", () => {
    const all = (Object.values(schema) as unknown[])
      .filter((value): value is PgTable => is(value, PgTable))
      .map((table) => getTableName(table));
    const machinery = ["chain_cursors", "rate_limits", "autosell_flows", "autosell_scans"];
    expect(userDataTables()).toEqual(all.filter((name) => !machinery.includes(name)).sort());
  });

  it("sees a row written to any of them", async () => {
    const before = await rowCounts(database.db);
    await database.db.insert(schema.users).values({ keyHash: "f".repeat(64), keyPrefix: "ffffff" });
    const after = await rowCounts(database.db);
    expect(after).toEqual({ ...before, users: (before.users ?? 0) + 1 });
  });
});
