import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
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
 * A new, empty database on the Postgres at `baseUrl` (for server processes to migrate and
 * share): its URL, and `drop` to remove it. One left behind by a crash is dropped by a later
 * run once it is two hours old.
 */
export const createPostgresDatabase = async (
  baseUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> => {
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
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: baseUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
};

const migrations = path.resolve(import.meta.dirname, "../../drizzle");

/**
 * A migrated, empty PGlite data dir as a dump, made once and kept in the temp dir under a name
 * that hashes every migration: a new PGlite runs initdb (4-10 s on these machines), loading
 * the dump takes under a second.
 */
let template: Promise<Blob> | undefined;
const pgliteTemplate = (): Promise<Blob> => {
  template ??= (async () => {
    const hash = createHash("sha256");
    for (const file of readdirSync(migrations, { recursive: true, encoding: "utf8" }).sort()) {
      const full = path.join(migrations, file);
      if (file.endsWith(".sql") || file.endsWith(".json"))
        hash.update(file).update(readFileSync(full));
    }
    const file = path.join(tmpdir(), `lb-pglite-${hash.digest("hex").slice(0, 16)}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const client = await PGlite.create();
    await migrate(drizzle(client), { migrationsFolder: migrations });
    const dump = await client.dumpDataDir("none");
    await client.close();
    // Written whole, then renamed: a file another test run is reading is never half there.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    return dump;
  })();
  return template;
};

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a
 * new database on the Postgres at DATABASE_URL (dropped again by `close`). A caller that
 * measures on both names the Postgres to use, or `null` for PGlite whatever the environment.
 */
export const createTestDatabase = async (
  baseUrl: string | null | undefined = process.env.DATABASE_URL,
): Promise<Database> => {
  if (!baseUrl) return openDatabase({ dataDir: null, from: await pgliteTemplate() });

  const created = await createPostgresDatabase(baseUrl);
  const database = await openDatabase({ databaseUrl: created.url, dataDir: null });
  return {
    ...database,
    close: async () => {
      await database.close();
      await created.drop();
    },
  };
};
