import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { type ChannelHandlers, listenPg, type StopListening } from "./pg-listener.ts";
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
  close(): Promise<void>;
}

const migrationsFolder = path.resolve(import.meta.dirname, "../../drizzle");

/**
 * Opens Postgres when `databaseUrl` is set, otherwise the embedded PGlite in
 * `dataDir` (or in memory when `dataDir` is null), and applies every migration.
 */
export const openDatabase = async (options: {
  databaseUrl?: string | undefined;
  dataDir: string | null;
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
    return {
      db,
      kind: "postgres",
      url: databaseUrl,
      listen: (channel, handlers) => listenPg(databaseUrl, channel, handlers),
      close: () => pool.end(),
    };
  }
  let dir: string | undefined;
  if (options.dataDir) {
    dir = path.join(options.dataDir, "pgdata");
    mkdirSync(dir, { recursive: true });
  }
  const client = await PGlite.create(dir);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
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
    close: () => client.close(),
  };
};
