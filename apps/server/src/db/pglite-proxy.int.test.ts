import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Worker } from "node:worker_threads";
import { sql } from "drizzle-orm";
import { bigint, jsonb, numeric, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../test/database.ts";
import { type Database, txExecutor } from "./client.ts";
import type { PgliteProxy } from "./pglite-proxy.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The embedded database's client behind drizzle: the main thread's side of the worker. */
const proxyOf = (database: Database) =>
  (database.db as unknown as { $client: PgliteProxy }).$client;
const workerOf = (database: Database) =>
  (proxyOf(database) as unknown as { worker: Worker }).worker;

/** drizzle wraps a driver's error in its own ("Failed query: ..."); the driver's is its cause. */
const causeOf = async (promise: Promise<unknown>): Promise<Record<string, unknown>> => {
  const error = (await promise.then(
    () => {
      throw new Error("expected the query to fail");
    },
    (e: unknown) => e,
  )) as { cause?: unknown };
  return (error.cause ?? error) as Record<string, unknown>;
};

const values = pgTable("proxy_values", {
  id: serial("id").primaryKey(),
  at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
  wei: bigint("wei", { mode: "bigint" }).notNull(),
  amount: numeric("amount").notNull(),
  data: jsonb("data").notNull(),
  note: text("note"),
});

// PGlite only: this is the embedded database's worker thread and the client that talks to it.
describe.skipIf(Boolean(process.env.DATABASE_URL))("the embedded database's worker", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(null);
    // Several statements in one text: the simple protocol, PGlite's `exec`.
    await proxyOf(database).exec(`
      create table proxy_counter (id int primary key, n int not null);
      insert into proxy_counter values (1, 0);
      create table proxy_rows (n int not null);
      create table proxy_unique (k text primary key);
      create table proxy_values (id serial primary key, at timestamptz not null, wei int8 not null,
        amount numeric not null, data jsonb not null, note text);
    `);
  });
  afterAll(() => database?.close());

  const db = () => database.db;
  const rowsOf = async (): Promise<number[]> =>
    (await db().execute<{ n: number }>(sql`select n from proxy_rows order by n`)).rows.map(
      (row) => row.n,
    );

  it("makes a query from outside an open transaction wait until it commits, never seeing its writes before", async () => {
    await db().execute(sql`delete from proxy_rows`);
    let outside: Promise<number> | undefined;
    let answered = false;
    await db().transaction(async (tx) => {
      await tx.execute(sql`insert into proxy_rows values (1)`);
      outside = db()
        .execute<{ count: number }>(sql`select count(*)::int as count from proxy_rows`)
        .then(({ rows }) => {
          answered = true;
          return Number(rows[0]?.count);
        });
      await sleep(100);
      expect(answered).toBe(false);
      await tx.execute(sql`insert into proxy_rows values (2)`);
    });
    // It ran after COMMIT: both rows, not the one written when it was sent.
    expect(await outside).toBe(2);
  });

  it("keeps a write sent from outside a transaction out of it: the transaction's rollback leaves it", async () => {
    await db().execute(sql`delete from proxy_rows`);
    let outside: Promise<unknown> | undefined;
    const refused = db().transaction(async (tx) => {
      await tx.execute(sql`insert into proxy_rows values (1)`);
      // Sent now (drizzle sends a query when it is awaited or `then`ed).
      outside = db()
        .execute(sql`insert into proxy_rows values (100)`)
        .then(() => undefined);
      await sleep(50);
      throw new Error("changed my mind");
    });
    await expect(refused).rejects.toThrow("changed my mind");
    await outside;
    expect(await rowsOf()).toEqual([100]);
  });

  it("leaves nothing of a rolled-back transaction, nested savepoints included", async () => {
    await db().execute(sql`delete from proxy_rows`);
    await expect(
      db().transaction(async (tx) => {
        await tx.execute(sql`insert into proxy_rows values (1)`);
        await tx.transaction(async (inner) => {
          await inner.execute(sql`insert into proxy_rows values (2)`);
        });
        throw new Error("roll it all back");
      }),
    ).rejects.toThrow("roll it all back");
    expect(await rowsOf()).toEqual([]);
    // A savepoint rolled back alone keeps the rest of its transaction.
    await db().transaction(async (tx) => {
      await tx.execute(sql`insert into proxy_rows values (1)`);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into proxy_rows values (2)`);
          throw new Error("only this part");
        })
        .catch(() => undefined);
    });
    expect(await rowsOf()).toEqual([1]);
  });

  it("runs concurrent transactions one after the other: no read-modify-write is lost", async () => {
    await db().execute(sql`update proxy_counter set n = 0 where id = 1`);
    await Promise.all(
      Array.from({ length: 20 }, () =>
        db().transaction(async (tx) => {
          const { rows } = await tx.execute<{ n: number }>(
            sql`select n from proxy_counter where id = 1`,
          );
          await sleep(1);
          await tx.execute(
            sql`update proxy_counter set n = ${Number(rows[0]?.n) + 1} where id = 1`,
          );
        }),
      ),
    );
    const { rows } = await db().execute<{ n: number }>(sql`select n from proxy_counter`);
    expect(rows[0]?.n).toBe(20);
  });

  it("answers many queries in flight at once, each with its own rows", async () => {
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        db().execute<{ n: number }>(sql`select ${i}::int as n`),
      ),
    );
    expect(answers.map(({ rows }) => rows[0]?.n)).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });

  it("hands values back as drizzle reads them: dates, bigints, numerics and JSON", async () => {
    const at = new Date("2026-12-07T10:11:12.345Z");
    const [row] = await db()
      .insert(values)
      .values({
        at,
        wei: 2n ** 62n + 1n,
        amount: "12345678901234567890.123",
        data: { a: [1, "b"] },
      })
      .returning();
    expect(row).toMatchObject({
      at,
      wei: 2n ** 62n + 1n,
      amount: "12345678901234567890.123",
      data: { a: [1, "b"] },
      note: null,
    });
    const raw = await db().execute<{ at: string }>(sql`select at from proxy_values`);
    // drizzle keeps a timestamp's text where it reads raw rows, as on PGlite itself.
    expect(typeof raw.rows[0]?.at).toBe("string");
  });

  it("fails a query with the database's error fields: code, constraint, detail, table", async () => {
    await db().execute(sql`insert into proxy_unique values ('a')`);
    const cause = await causeOf(db().execute(sql`insert into proxy_unique values ('a')`));
    expect(cause).toBeInstanceOf(Error);
    expect(cause).toMatchObject({
      code: "23505",
      constraint: "proxy_unique_pkey",
      table: "proxy_unique",
      detail: "Key (k)=(a) already exists.",
      message: 'duplicate key value violates unique constraint "proxy_unique_pkey"',
    });
    // The same inside a transaction (raw SQL through txExecutor, as pg-boss sends there), which
    // then rolls back.
    const inTx = await causeOf(
      db().transaction(async (tx) => {
        await txExecutor(tx).executeSql("insert into proxy_unique values ($1)", ["b"]);
        await txExecutor(tx).executeSql("insert into proxy_unique values ($1)", ["a"]);
      }),
    );
    expect(inTx.code).toBe("23505");
    const { rows } = await db().execute(sql`select k from proxy_unique order by k`);
    expect(rows).toEqual([{ k: "a" }]);
  });

  it("gives a failed query the caller's stack", async () => {
    const error = (await proxyOf(database)
      .query("select 1/0")
      .catch((e: unknown) => e)) as Error & { code?: string };
    expect(error.code).toBe("22012");
    expect(error.stack).toMatch(/^error: division by zero\n/);
    expect(error.stack).toContain(path.basename(import.meta.filename));
  });

  it("fails a query whose parameter cannot cross to the worker, and only that query", async () => {
    const proxy = proxyOf(database);
    await expect(proxy.query("select $1::text as t", [() => "a function"])).rejects.toThrow(
      /could not be cloned/,
    );
    expect((await proxy.query("select 'next' as t")).rows).toEqual([{ t: "next" }]);
  });

  it("refuses to commit a transaction whose statement failed, as PGlite does (25P02)", async () => {
    await db().execute(sql`delete from proxy_rows`);
    const cause = await causeOf(
      db().transaction(async (tx) => {
        await tx.execute(sql`insert into proxy_rows values (1)`);
        await tx.execute(sql`select 1/0`).catch(() => undefined);
      }),
    );
    expect(cause.code).toBe("25P02");
    expect(await rowsOf()).toEqual([]);
  });

  it("delivers notifications, a committed transaction's too, and none of a rolled-back one", async () => {
    const heard: string[] = [];
    let listening = false;
    const stop = await database.listen("proxy_channel", {
      message: (payload) => heard.push(payload),
      listening: () => {
        listening = true;
      },
      lost: () => {},
    });
    expect(listening).toBe(true);
    await db().execute(sql`select pg_notify('proxy_channel', 'plain')`);
    await db().transaction(async (tx) => {
      await tx.execute(sql`select pg_notify('proxy_channel', 'committed')`);
    });
    await db()
      .transaction(async (tx) => {
        await tx.execute(sql`select pg_notify('proxy_channel', 'rolled back')`);
        throw new Error("no");
      })
      .catch(() => undefined);
    await db().execute(sql`notify proxy_channel, 'last'`);
    expect(heard).toEqual(["plain", "committed", "last"]);
    await stop();
    await db().execute(sql`select pg_notify('proxy_channel', 'after stop')`);
    await sleep(20);
    expect(heard).toEqual(["plain", "committed", "last"]);
  });
});

describe.skipIf(Boolean(process.env.DATABASE_URL))("the embedded database's worker's end", () => {
  it("ends with close, and calls after it fail at once", async () => {
    const database = await createTestDatabase(null);
    const exited = new Promise<number>((resolve) => workerOf(database).once("exit", resolve));
    await database.db.execute(sql`select 1`);
    // Twice at once, as two owners' shutdowns might: one close.
    await Promise.all([database.close(), database.close()]);
    await exited;
    const cause = await causeOf(database.db.execute(sql`select 1`));
    expect(cause.message).toMatch(/closed/);
  });

  it("fails the calls waiting on a worker that died instead of leaving them hanging", async () => {
    const database = await createTestDatabase(null);
    const proxy = proxyOf(database);
    const slow = proxy.query("select count(*) from generate_series(1, 100000000)");
    const waiting = proxy.query("select 1");
    await sleep(100);
    // As if the thread crashed mid-query.
    await workerOf(database).terminate();
    await expect(slow).rejects.toThrow(/worker ended/);
    await expect(waiting).rejects.toThrow(/worker ended/);
    await expect(proxy.query("select 1")).rejects.toThrow(/worker ended/);
    await database.close();
  });

  it("tells its owner once that a worker died, and never when it was closed", async () => {
    const dying = await createTestDatabase(null);
    const heard: string[] = [];
    dying.onLost((why) => heard.push(why));
    await workerOf(dying).terminate();
    await expect.poll(() => heard).toEqual([expect.stringMatching(/worker ended/)]);
    await dying.close();
    expect(heard).toHaveLength(1);

    const closing = await createTestDatabase(null);
    const exited = new Promise((resolve) => workerOf(closing).once("exit", resolve));
    closing.onLost((why) => heard.push(why));
    await closing.close();
    await exited;
    expect(heard).toHaveLength(1);
  });

  it("does not keep the process alive once nothing waits on it", async () => {
    // A process that opened the database, asked it something and never closed it ends by itself.
    const script = path.join(mkdtempSync(path.join(tmpdir(), "lb-proxy-")), "idle.mjs");
    writeFileSync(
      script,
      [
        `const { createTestDatabase } = await import(${JSON.stringify(path.resolve(import.meta.dirname, "../test/database.ts"))});`,
        "const database = await createTestDatabase(null);",
        `const { rows } = await database.db.$client.query("select 41 + 1 as answer");`,
        "console.log(rows[0].answer);",
      ].join("\n"),
    );
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      cwd: path.resolve(import.meta.dirname, "../../../.."),
      env: { ...process.env, DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const ended = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const code = await Promise.race([ended, sleep(45_000).then(() => "still running")]);
    if (code === "still running") child.kill("SIGKILL");
    rmSync(path.dirname(script), { recursive: true, force: true });
    expect({ code, output: output.trim() }).toEqual({ code: 0, output: "42" });
  }, 60_000);
});
