import { createAdapter } from "@socket.io/postgres-adapter";
import pg from "pg";

/** The table `@socket.io/postgres-adapter` keeps packets too large (or binary) for a NOTIFY in. */
export const SOCKET_ATTACHMENTS_TABLE = "socket_io_attachments";

/** socket.io's Postgres adapter on a pool of its own; `close` after closing the adapter. */
export interface PostgresSocketAdapter {
  adapter: ReturnType<typeof createAdapter>;
  close(): Promise<void>;
}

/** Answers nothing, ever: what the adapter gets once closed, so it stops trying to reconnect. */
const never = <T>() => new Promise<T>(() => {});

/**
 * Rooms and server-side events across every server process on one Postgres database: socket.io's
 * Postgres adapter (LISTEN/NOTIFY) on a small pool from `databaseUrl`, with the table it needs
 * created when missing (its documented statement, under an advisory lock so two processes
 * starting at once do not race on it).
 *
 * The adapter holds one connection for its LISTEN and never hands it back. The pool does not
 * watch a connection someone holds, so this does: when Postgres ends it (a restart, a failover)
 * its "error" is heard instead of crashing the process, and its place in the pool is freed for
 * the adapter's reconnection. Once closed, the adapter's retries wait forever instead of
 * spinning on an ended pool.
 *
 * @example
 * const shared = await openPostgresSocketAdapter(env.DATABASE_URL, (line) => log.warn(line));
 * new Server(httpServer, { adapter: shared.adapter });
 */
export const openPostgresSocketAdapter = async (
  databaseUrl: string,
  log: (message: string) => void,
): Promise<PostgresSocketAdapter> => {
  // One connection listens; ONE publishes, so a launch's terminal lines are NOTIFYed, and
  // reach the other processes, in the order they were said (two would race each other).
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  pool.on("error", (error) =>
    log(`socket.io adapter: an idle connection ended (${error.message})`),
  );
  await createAttachmentsTable(pool).catch(async (error: Error) => {
    await pool.end();
    throw error;
  });

  const held = new Set<pg.PoolClient>();
  pool.on("release", (_error, client) => held.delete(client));
  let closed = false;
  const connect = async (): Promise<pg.PoolClient> => {
    if (closed) return never();
    const client = await pool.connect();
    if (closed) {
      client.release(true);
      return never();
    }
    held.add(client);
    client.on("error", (error) => log(`socket.io adapter: its listener ended (${error.message})`));
    client.once("end", () => {
      if (held.has(client)) client.release(new Error("the connection ended"));
    });
    return client;
  };
  // The adapter uses only these two.
  const forAdapter = { connect, query: pool.query.bind(pool) } as unknown as pg.Pool;

  const adapter = createAdapter(forAdapter, {
    tableName: SOCKET_ATTACHMENTS_TABLE,
    errorHandler: (error) => log(`socket.io adapter: ${error.message}`),
  });
  return {
    adapter,
    close: async () => {
      closed = true;
      for (const client of held) client.release(true);
      await pool.end();
    },
  };
};

const createAttachmentsTable = async (pool: pg.Pool): Promise<void> => {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [SOCKET_ATTACHMENTS_TABLE]);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${SOCKET_ATTACHMENTS_TABLE} (
        id          bigserial UNIQUE,
        created_at  timestamptz DEFAULT NOW(),
        payload     bytea
      )`);
    await client.query("COMMIT");
    client.release();
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
};
