import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { SERVER_ROOT } from "../paths.ts";
import { type ChannelHandlers, listenPg, type StopListening } from "./pg-listener.ts";
import { PgliteProxy } from "./pglite-proxy.ts";
import * as schema from "./schema.ts";

/**
 * Both drivers expose the same drizzle query builder; the node-postgres type
 * stands for both so services never care which database they run on.
 */
export type Db = ReturnType<typeof drizzlePg<typeof schema>>;

/** A transaction on a `Db`: pass it where a write must commit or roll back with others. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Postgres only: its connection string, for what needs connections of its own. */
  url?: string | undefined;
  /**
   * Hears `NOTIFY channel` (or `pg_notify`) from every process on this database: on Postgres
   * through a dedicated connection that reconnects when it drops; on PGlite, which one process
   * owns, in process. Stop it before `close`.
   */
  listen(channel: string, handlers: ChannelHandlers): Promise<StopListening>;
  /**
   * Holds `key` for as long as this process lives or until released; null when another holder
   * has it. On Postgres a session advisory lock on a pooled connection it keeps while held (a
   * process that dies drops the connection, and so the lock, at once); on PGlite, which one
   * process owns, in process. Work that must never run twice at once (a launch, a delayed buy)
   * runs under it.
   */
  tryLock(key: string): Promise<ReleaseLock | null>;
  /** Where the job engine keeps its queues: the same database, its own schema. */
  jobStore: JobStore;
  /**
   * `tell` hears once that the database is gone for good and every call will fail: PGlite's
   * worker thread died (never after `close`). Postgres never calls it: its pool reconnects.
   */
  onLost(tell: (why: string) => void): void;
  close(): Promise<void>;
}

export type ReleaseLock = () => Promise<void>;

/** Raw SQL inside a drizzle transaction (both drivers' transaction clients answer `query`). */
export const txExecutor = (tx: Tx) => {
  const client = (
    tx as unknown as {
      session: {
        client: { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };
      };
    }
  ).session.client;
  return { executeSql: (text: string, values?: unknown[]) => client.query(text, values) };
};

/** pg-boss's connection: its own pool on Postgres, the one PGlite instance otherwise. */
export type JobStore =
  | { connectionString: string }
  | { db: { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } };

/** Connections the session locks of one process may hold at once (each held lock keeps one). */
export const LOCK_CONNECTIONS = 32;
/**
 * How long an attempt waits for a lock connection when another attempt took the last free one
 * meanwhile (or Postgres is slow to accept one): then the lock counts as busy.
 */
const LOCK_CONNECT_MS = 2_000;

/**
 * The locks a crashed holder cannot keep: session advisory locks, each held on a connection of
 * its own (a process that dies drops its connections, and so its locks, at once). The
 * connections are pooled: an attempt that finds the lock taken hands its connection straight
 * back, and a released lock's connection is unlocked and reused, so a caller that retries (a
 * withdrawal waits for a bump every 500 ms for a minute) does not open a connection each time.
 * With every connection holding a lock, an attempt answers busy at once instead of waiting for
 * a holder to let go.
 */
const pgLocks = (connectionString: string) => {
  const pool = new pg.Pool({
    connectionString,
    max: LOCK_CONNECTIONS,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: LOCK_CONNECT_MS,
    application_name: "lb-locks",
  });
  // An idle connection that ends is dropped by the pool; a held one's holder learns on release.
  pool.on("error", () => {});
  const heard = new WeakSet<pg.PoolClient>();
  /** Every connection the pool may open is open and holds a lock (or is being opened). */
  const full = () => pool.totalCount >= LOCK_CONNECTIONS && pool.idleCount === 0;
  const tryLock = async (key: string): Promise<ReleaseLock | null> => {
    // Busy now, not once a holder lets go: a withdrawal holds its lock for up to a minute.
    if (full()) return null;
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      // The last free connection went to another attempt: busy. Otherwise Postgres is away.
      if (full()) return null;
      throw error;
    }
    if (!heard.has(client)) {
      heard.add(client);
      client.on("error", () => {});
    }
    let held: boolean;
    try {
      const { rows } = await client.query<{ held: boolean }>(
        "select pg_try_advisory_lock(hashtext('lock'), hashtext($1)) as held",
        [key],
      );
      held = rows[0]?.held === true;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    if (!held) {
      client.release();
      return null;
    }
    let released = false;
    const drop = () => {
      released = true;
      holding.delete(drop);
      client.release(new Error("the database is closing"));
    };
    holding.add(drop);
    return async () => {
      if (released) return;
      released = true;
      holding.delete(drop);
      try {
        await client.query("select pg_advisory_unlock(hashtext('lock'), hashtext($1))", [key]);
        client.release();
      } catch (error) {
        // A connection that cannot unlock is closed, and its lock with it.
        client.release(error as Error);
      }
    };
  };
  // Closing ends the connections of locks still held (their holders' releases do nothing).
  const holding = new Set<() => void>();
  const close = async () => {
    for (const drop of [...holding]) drop();
    await pool.end();
  };
  return { tryLock, close };
};

const migrationsFolder = path.join(SERVER_ROOT, "drizzle");

/**
 * How many migrations this version has and how many the database holds as applied (drizzle's
 * `drizzle.__drizzle_migrations`): more applied than known means a newer version migrated it.
 */
export const migrationState = async (db: Db): Promise<{ known: number; applied: number }> => {
  const journal = JSON.parse(
    readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8"),
  ) as { entries: unknown[] };
  const { rows } = await db.execute(
    sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
  );
  return {
    known: journal.entries.length,
    applied: Number((rows[0] as { applied: number }).applied),
  };
};

/**
 * Opens Postgres when `databaseUrl` is set, otherwise the embedded PGlite in
 * `dataDir` (or in memory when `dataDir` is null), and applies every migration.
 */
export const openDatabase = async (options: {
  databaseUrl?: string | undefined;
  dataDir: string | null;
  /** PGlite only: a dump of a data dir to start from (`dumpDataDir`), e.g. a migrated one. */
  from?: Blob;
}): Promise<Database> => {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // Postgres ending an idle connection (a restart, a failover, an admin) reaches the pool as
    // an event; unheard it would crash the process. The pool drops that client and opens
    // another on the next query, so noting it is all there is to do.
    pool.on("error", (error) => {
      process.stderr.write(`database: an idle connection ended (${error.message}); reconnecting\n`);
    });
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    const { databaseUrl } = options;
    const locks = pgLocks(databaseUrl);
    return {
      db,
      kind: "postgres",
      url: databaseUrl,
      listen: (channel, handlers) => listenPg(databaseUrl, channel, handlers),
      tryLock: locks.tryLock,
      jobStore: { connectionString: databaseUrl },
      onLost: () => {},
      close: async () => {
        await locks.close();
        await pool.end();
      },
    };
  }
  let dir: string | undefined;
  if (options.dataDir) {
    dir = path.join(options.dataDir, "pgdata");
    mkdirSync(dir, { recursive: true });
  }
  // PGlite runs in a worker thread of its own, off the request loop (pglite-proxy.ts); drizzle's
  // PGlite driver talks to it as to PGlite itself.
  const client = await PgliteProxy.open({
    dataDir: dir,
    ...(options.from ? { from: options.from } : {}),
  });
  const db = drizzlePglite(client as unknown as PGlite, { schema });
  await migratePglite(db, { migrationsFolder });
  const held = new Set<string>();
  return {
    db: db as unknown as Db,
    kind: "pglite",
    listen: async (channel, handlers) => {
      const unlisten = await client.listen(channel, (payload) => handlers.message(payload));
      handlers.listening();
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    tryLock: async (key) => {
      if (held.has(key)) return null;
      held.add(key);
      return async () => {
        held.delete(key);
      };
    },
    jobStore: {
      db: {
        // Calls without parameters (pg-boss's multi-statement migrations and locked commands)
        // go to exec, which runs several statements; the answer is the last statement's.
        executeSql: async (text, values) => {
          if (values && values.length > 0) return client.query(text, values);
          const results = await client.exec(text);
          return results.at(-1) ?? { rows: [] };
        },
      },
    },
    onLost: (tell) => client.onLost(tell),
    close: () => client.close(),
  };
};
