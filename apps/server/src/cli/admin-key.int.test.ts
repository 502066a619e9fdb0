import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { openDatabase } from "../db/client.ts";
import { testPublicConfig } from "../test/app.ts";

const root = path.resolve(import.meta.dirname, "../../../..");
const parent = mkdtempSync(path.join(tmpdir(), "bundler-admin-key-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** `npm run admin:key -- <args>` on the embedded database in `dataDir`. */
const adminKey = (dataDir: string, args: string[]) =>
  spawnSync(
    process.execPath,
    ["--import", "tsx", path.join(root, "apps/server/src/cli/admin-key.ts"), ...args],
    {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
      encoding: "utf8",
      timeout: 90_000,
    },
  );

describe("npm run admin:key", () => {
  it("mints a key that the server then accepts with the asked role", async () => {
    const dataDir = path.join(parent, "minted");
    const result = adminKey(dataDir, ["--role", "admin"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const key = /New admin access key \(shown once\): (lbk_\S+)\n$/.exec(result.stdout)?.[1];
    expect(key).toBeDefined();

    // The process has exited: the server now opens the same embedded database.
    const database = await openDatabase({ dataDir });
    const app = await buildApp({
      database,
      publicConfig: testPublicConfig,
      allowedOrigins: [],
      rateLimitPerMinute: 100,
      freeKeyLimitPerHour: 10,
      bodyLimitBytes: 64 * 1024,
      logLevel: "silent",
      masterKey: randomBytes(32),
    });
    try {
      const response = await app.server.inject({
        method: "POST",
        url: "/api/auth/key/validate",
        payload: { key },
      });
      expect(response.json()).toEqual({ success: true, role: "admin" });
    } finally {
      await app.server.close();
      await database.close();
    }
  });

  it("refuses an unknown role in one line and writes nothing", () => {
    const dataDir = path.join(parent, "refused");
    const result = adminKey(dataDir, ["--role", "owner"]);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "Cannot mint a key: --role must be one of user, admin, superadmin (got owner)\n",
    );
    expect(existsSync(dataDir)).toBe(false);
  });
});
