import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getFreePort } from "@bundler/chain";
import { anvilAt } from "../../apps/server/src/test/anvil-at.ts";
import { createPostgresDatabase } from "../../apps/server/src/test/database.ts";
import { ServerProcess } from "../../apps/server/src/test/server-process.ts";

/** Real server processes on one local chain and one database, as an operator runs them. */
export interface Deployment {
  urls: string[];
  rpcUrl: string;
  /** The superadmin key the first process printed. */
  adminKey: string;
  /** What each process printed so far (its debug log included), in process order. */
  printed(): string[];
  stop(): Promise<void>;
}

/**
 * `processes` server processes: the first starts the chain (anvil), the others attach to it
 * with LOCAL_BUILDER_URL. On PGlite (no `postgresBaseUrl`) only one process can hold the data
 * dir; with `postgresBaseUrl` they share a fresh database on that Postgres, dropped by `stop`.
 * They log at debug level, which records every user event they emit.
 */
export const deploy = async (
  processes: number,
  postgresBaseUrl: string | undefined,
): Promise<Deployment> => {
  if (processes > 1 && !postgresBaseUrl) throw new Error("several processes need Postgres");
  const dataDir = mkdtempSync(path.join(tmpdir(), "lb-realtime-row-"));
  const database = postgresBaseUrl ? await createPostgresDatabase(postgresBaseUrl) : undefined;
  const anvilPort = await getFreePort();
  const anvil = anvilAt(() => anvilPort);
  const servers: ServerProcess[] = [];
  const urls: string[] = [];

  const stop = async () => {
    // The first process owns the chain: the others go first.
    for (const server of [...servers].reverse()) await server.stop().catch(() => server.crash());
    await anvil.stopped().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 300 });
    await database?.drop();
  };

  try {
    const shared = {
      CHAIN: "local",
      DATA_DIR: dataDir,
      ...(database ? { DATABASE_URL: database.url } : {}),
      HOST: "127.0.0.1",
      MASTER_KEY: randomBytes(32).toString("hex"),
      RATE_LIMIT_PER_MINUTE: "1000000",
      FREE_KEYS_PER_IP_PER_DAY: "1000",
      FREE_KEY_LIMIT_PER_HOUR: "1000",
      LAUNCH_FEE_BNB: "0.01",
      JOB_POLL_SECONDS: "0.5",
      LOG_LEVEL: "debug",
    };
    let builderUrl = "";
    for (let n = 0; n < processes; n++) {
      const port = await getFreePort();
      const server = new ServerProcess({
        ...shared,
        PORT: String(port),
        ...(n === 0 ? { ANVIL_PORT: String(anvilPort) } : { LOCAL_BUILDER_URL: builderUrl }),
      });
      servers.push(server);
      await server.start();
      urls.push(`http://127.0.0.1:${port}`);
      if (n === 0) {
        builderUrl = /builder (http:\/\/\S+)/.exec(server.printed())?.[1] ?? "";
        if (!builderUrl) throw new Error("no builder URL in the first process's banner");
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    urls,
    rpcUrl: anvil.url(),
    adminKey: servers[0]?.key ?? "",
    printed: () => servers.map((server) => server.printed()),
    stop,
  };
};
