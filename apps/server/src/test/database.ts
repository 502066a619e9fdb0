import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../db/client.ts";
import { isStaleTestDatabase, newTestDatabaseName } from "./database-name.ts";

/** A crashed test file never drops its database: whoever creates the next one does. */
const dropStaleDatabases = async (admin: pg.Client): Promise<void> => {
  const { rows } = await admin.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE datname LIKE 'lb\\_test\\_%'",
  );
  for (const { datname } of rows) {
    if (!isStaleTestDatabase(datname, Date.now())) continue;
    // Another run may be dropping it at the same moment; either way it goes.
    await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`).catch(() => undefined);
  }
};

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a
 * new database on the Postgres at DATABASE_URL (dropped again by `close`; one left
 * behind by a crash is dropped by a later run once it is two hours old). `postgresUrl`
 * chooses instead of DATABASE_URL: a Postgres server, or null for PGlite.
 */
export const createTestDatabase = async (
  options: { postgresUrl?: string | null } = {},
): Promise<Database> => {
  const baseUrl =
    options.postgresUrl === undefined ? process.env.DATABASE_URL : options.postgresUrl;
  if (!baseUrl) return openDatabase({ dataDir: null });

  const name = newTestDatabaseName(Date.now(), randomBytes(4).toString("hex"));
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await dropStaleDatabases(admin);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }

  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
  return {
    ...database,
    close: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: baseUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
};
