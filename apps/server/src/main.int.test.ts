import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getFreePort } from "@bundler/chain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "./db/client.ts";
import { createTestDatabase } from "./test/database.ts";
import { ServerProcess } from "./test/server-process.ts";

const launchpadOf = (output: string) => /launchpad (0x[0-9a-fA-F]{40})/.exec(output)?.[1];

// Only Postgres takes several processes; the embedded database belongs to one.
describe.skipIf(!process.env.DATABASE_URL)("several server processes on one Postgres", () => {
  let database: Database;
  let dataDir: string;
  const running: ServerProcess[] = [];
  /** A server process on the shared database and data dir, on a port of its own. */
  const serverProcess = async (env: Record<string, string> = {}) => {
    const server = new ServerProcess({
      CHAIN: "local",
      DATA_DIR: dataDir,
      DATABASE_URL: database.url ?? "",
      HOST: "127.0.0.1",
      PORT: String(await getFreePort()),
      ANVIL_PORT: String(await getFreePort()),
      ...env,
    });
    running.push(server);
    return server;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(path.join(tmpdir(), "lb-processes-"));
  });
  afterAll(async () => {
    for (const server of running.reverse()) await server.stop();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts the local chain once; a process given LOCAL_BUILDER_URL shares it, one without is refused", async () => {
    const first = await serverProcess();
    await first.start();
    const builderUrl = /LOCAL_BUILDER_URL=(\S+) \(same DATA_DIR and DATABASE_URL\)/.exec(
      first.printed(),
    )?.[1];
    expect(builderUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);

    const second = await serverProcess({ LOCAL_BUILDER_URL: builderUrl ?? "" });
    await second.start();
    expect(second.printed()).toContain(`local chain (another process's): launchpad`);
    expect(launchpadOf(second.printed())).toBe(launchpadOf(first.printed()));
    expect(second.printed()).not.toContain("LOCAL_BUILDER_URL=");

    const third = await serverProcess();
    await expect(third.start()).rejects.toThrow(
      /is in use by process \d+; stop it before the server starts, or set LOCAL_BUILDER_URL to the builder URL it printed/,
    );
  });
});
