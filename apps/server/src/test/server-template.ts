import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getFreePort } from "@bundler/chain";
import { ServerProcess } from "./server-process.ts";

const root = path.resolve(import.meta.dirname, "../../../..");
/** What a first start's data dir depends on: the server, the packages and the migrations. */
const SOURCES = [
  "apps/server/src",
  "apps/server/drizzle",
  "packages/chain/src",
  "packages/shared/src",
  "packages/contracts/src",
];
const PREFIX = "lb-server-template-";
/** A template this old belongs to sources long gone (no run takes two hours). */
const STALE_MS = 2 * 60 * 60 * 1000;

const hashSources = (extra: string): string => {
  const hash = createHash("sha256").update(extra);
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!/\.test\.tsx?$/.test(entry.name))
        hash.update(path.relative(root, full)).update(readFileSync(full));
    }
  };
  for (const dir of SOURCES) walk(path.join(root, dir));
  return hash.digest("hex").slice(0, 16);
};

interface Template {
  dir: string;
  superadminKey: string;
}

/** The environment a first start's data dir depends on (the rest can change at every start). */
const FIRST_START_ENV = ["GRADUATION_BNB"] as const;

/**
 * A data dir as the real server's first start on the local chain leaves it: its master key,
 * its embedded database migrated with the superadmin key it printed, its chain with our
 * contracts deployed. Made once per set of sources (and GRADUATION_BNB) in the temp dir, and
 * copied for each test server: a first start spends 7-20 s on initdb and the deployment here,
 * a start from a copy 2-4 s.
 */
const template = async (env: Record<string, string>): Promise<Template> => {
  const firstStart = Object.fromEntries(
    FIRST_START_ENV.filter((name) => env[name] !== undefined).map((name) => [name, env[name]]),
  ) as Record<string, string>;
  const dir = path.join(tmpdir(), `${PREFIX}${hashSources(JSON.stringify(firstStart))}`);
  const keyFile = path.join(dir, "superadmin.key");
  if (existsSync(keyFile)) return { dir, superadminKey: readFileSync(keyFile, "utf8") };

  removeStaleTemplates();
  const building = mkdtempSync(path.join(tmpdir(), "lb-building-template-"));
  const server = new ServerProcess({
    CHAIN: "local",
    DATA_DIR: building,
    HOST: "127.0.0.1",
    PORT: String(await getFreePort()),
    ANVIL_PORT: String(await getFreePort()),
    ...firstStart,
  });
  await server.start();
  await server.stop();
  writeFileSync(path.join(building, "superadmin.key"), server.key);
  try {
    // Another run may have made the same template meanwhile: then its copy stands.
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true });
  }
  return { dir, superadminKey: readFileSync(keyFile, "utf8") };
};

const removeStaleTemplates = () => {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const full = path.join(tmpdir(), name);
    if (Date.now() - statSync(full).mtimeMs > STALE_MS)
      rmSync(full, { recursive: true, force: true });
  }
};

/**
 * Fills `dataDir` (new and empty) as the server's first start would, from the template: on the
 * embedded database all of it; on Postgres (`database: "postgres"`) only the master key and
 * the chain, since the database is the caller's. Answers the superadmin key that works on the
 * copied database, or null on Postgres (the server's first start there prints its own).
 */
export const fromServerTemplate = async (
  dataDir: string,
  {
    env = {},
    database = "pglite",
  }: { env?: Record<string, string>; database?: "pglite" | "postgres" } = {},
): Promise<string | null> => {
  const { dir, superadminKey } = await template(env);
  for (const entry of readdirSync(dir)) {
    if (entry === "superadmin.key" || (database === "postgres" && entry === "pgdata")) continue;
    cpSync(path.join(dir, entry), path.join(dataDir, entry), { recursive: true });
  }
  return database === "pglite" ? superadminKey : null;
};
