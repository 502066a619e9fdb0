import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../db/client.ts";

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a
 * new database on the Postgres at DATABASE_URL (dropped again by `close`).
 */
export const createTestDatabase = async (): Promise<Database> => {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) return openDatabase({ dataDir: null });

  const name = `lb_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();

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
