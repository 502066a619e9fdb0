import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "../../db/client.ts";
import { hashAccessKey } from "../../lib/crypto.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { AUTH_KEYS_CHANNEL } from "./auth.cache.ts";

// Two server processes on one database, as when the server is scaled out: `first` owns the
// database, `second` is another buildApp on it with its own cache and its own listener.
let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  first = await createTestApp();
  second = await createTestApp({ database: first.database });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

const validate = (app: TestApp, key: string) =>
  app.server.inject({ method: "POST", url: "/api/auth/key/validate", payload: { key } });

/**
 * Counts the queries on the `users` table sent to the database's driver (both apps share it):
 * a key check reads nothing else, and the job workers' own polling must not count.
 */
const countQueries = (database: Database) => {
  const client = (database.db as unknown as { $client: { query: (...args: never[]) => unknown } })
    .$client;
  const query = client.query.bind(client);
  const onUsers = vi.fn();
  const spy = vi.spyOn(client, "query").mockImplementation((...args: never[]) => {
    // node-postgres takes the text or a query config ({text, values}); PGlite the text.
    const first = (args as unknown[])[0] as string | { text?: string } | undefined;
    const text = typeof first === "string" ? first : (first?.text ?? "");
    if (/"users"/.test(text)) onUsers(text);
    return query(...args);
  });
  return Object.assign(onUsers, { mockRestore: () => spy.mockRestore() });
};

const mintUser = async () => {
  const key = await first.auth.mintKey("user");
  const user = await first.auth.authenticate(key);
  if (!user) throw new Error("a minted key did not authenticate");
  return { key, id: user.id };
};

/** Polls until `check` holds, answering how long that took; fails past `withinMs`. */
const within = async (withinMs: number, check: () => Promise<boolean>): Promise<number> => {
  const began = performance.now();
  while (!(await check())) {
    if (performance.now() - began > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return performance.now() - began;
};

describe("the access-key cache", () => {
  it("serves repeated validations without a database query", async () => {
    const { key } = await mintUser();
    expect((await validate(second, key)).statusCode).toBe(200);
    const queries = countQueries(first.database);
    try {
      for (let i = 0; i < 20; i++) {
        expect((await validate(second, key)).json()).toEqual({ success: true, role: "user" });
      }
      expect(queries).not.toHaveBeenCalled();
      // The counter does count: once forgotten, the key is read again.
      second.auth.keys.clear();
      expect((await validate(second, key)).statusCode).toBe(200);
      expect(queries).toHaveBeenCalled();
    } finally {
      queries.mockRestore();
    }
  });

  it("refuses an unknown key again without a database query", async () => {
    expect((await validate(second, "lbk_not-a-real-key-at-all")).statusCode).toBe(401);
    const queries = countQueries(first.database);
    try {
      expect((await validate(second, "lbk_not-a-real-key-at-all")).statusCode).toBe(401);
      expect(queries).not.toHaveBeenCalled();
    } finally {
      queries.mockRestore();
    }
  });

  it("refuses a deactivated key on the next request, and accepts it again once re-activated", async () => {
    const { key, id } = await mintUser();
    expect((await validate(first, key)).statusCode).toBe(200);
    await first.auth.setActive(id, false);
    expect((await validate(first, key)).statusCode).toBe(401);
    await first.auth.setActive(id, true);
    expect((await validate(first, key)).statusCode).toBe(200);
  });

  it("a key deactivated through one process is refused by the other within a second", async () => {
    const { key, id } = await mintUser();
    expect((await validate(second, key)).statusCode).toBe(200);
    expect(second.auth.keys.get(hashAccessKey(key))).toBeTruthy(); // cached there
    await first.auth.setActive(id, false);
    await within(1_000, async () => (await validate(second, key)).statusCode === 401);
    // and it stays refused (no stale answer put back)
    expect((await validate(second, key)).statusCode).toBe(401);
  });

  it("a role changed in SQL (the admin CLI, a manual fix) takes effect in every process within a second", async () => {
    const { key, id } = await mintUser();
    for (const app of [first, second]) expect((await validate(app, key)).statusCode).toBe(200);
    await first.database.db.execute(sql`update users set role = 'admin' where id = ${id}`);
    for (const app of [first, second]) {
      await within(1_000, async () => (await validate(app, key)).json().role === "admin");
    }
  });

  it("a key deleted in SQL is refused by every process within a second", async () => {
    const { key, id } = await mintUser();
    for (const app of [first, second]) expect((await validate(app, key)).statusCode).toBe(200);
    await first.database.db.execute(sql`delete from users where id = ${id}`);
    for (const app of [first, second]) {
      await within(1_000, async () => (await validate(app, key)).statusCode === 401);
    }
  });

  it("does not record last use on every request", async () => {
    const { key } = await mintUser();
    await validate(second, key);
    const queries = countQueries(first.database);
    try {
      await Promise.all(Array.from({ length: 10 }, () => validate(second, key)));
      expect(queries).not.toHaveBeenCalled();
    } finally {
      queries.mockRestore();
    }
  });

  it.runIf(process.env.DATABASE_URL)(
    "on Postgres, reconnects a dropped listener, serving nothing from the cache meanwhile",
    async () => {
      const { key, id } = await mintUser();
      expect((await validate(second, key)).statusCode).toBe(200);
      const { rows } = await first.database.db.execute(sql`
        select pg_terminate_backend(pid) as done from pg_stat_activity
        where datname = current_database() and query = ${`LISTEN "${AUTH_KEYS_CHANNEL}"`}`);
      expect(rows.length).toBe(2); // one listener per process
      await within(1_000, async () => !second.auth.keys.isListening);
      expect(second.auth.keys.size).toBe(0);
      await within(5_000, async () => second.auth.keys.isListening);
      expect((await validate(second, key)).statusCode).toBe(200);
      await first.database.db.execute(sql`update users set is_active = false where id = ${id}`);
      await within(1_000, async () => (await validate(second, key)).statusCode === 401);
    },
  );
});
