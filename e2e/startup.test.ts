import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPublicClient, http, parseEther } from "viem";
import { afterAll } from "vitest";
import { serverArgs } from "../scripts/build-server.mjs";
import { apiClient } from "./support/api.ts";
import { describe, expect, test } from "./support/fixtures.ts";
import { startServer } from "./support/server.ts";

const dataDir = mkdtempSync(path.join(tmpdir(), "bundler-startup-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const launchpadOf = (output: string) => /launchpad (0x[0-9a-fA-F]{40})/.exec(output)?.[1];

describe("npm start", () => {
  test("deploys the launchpad once and reuses it, with the superadmin key printed only the first time", async () => {
    const first = await startServer({ dataDir });
    const launchpad = launchpadOf(first.output());
    expect(launchpad).toMatch(/^0x/);
    expect(first.superadminKey).toMatch(/^lbk_/);
    await first.stop();

    const second = await startServer({ dataDir });
    expect(launchpadOf(second.output())).toBe(launchpad);
    expect(second.superadminKey).toBeNull();
    await second.stop();
  });

  test("deploys the curve with GRADUATION_BNB and keeps it when the variable later changes", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "bundler-graduation-"));
    try {
      const first = await startServer({ dataDir: dir, env: { GRADUATION_BNB: "2" } });
      await first.stop();
      const deployment = JSON.parse(
        readFileSync(path.join(dir, "chain", "deployment.json"), "utf8"),
      );
      expect(deployment.graduationBnb).toBe("2");

      const second = await startServer({ dataDir: dir, env: { GRADUATION_BNB: "3" } });
      await second.stop();
      expect(second.output()).toContain(
        "GRADUATION_BNB=3 is not used: the local launchpad was deployed with 2 BNB",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("refuses a real network it cannot reach, before minting a key, and shows the RPC without its secrets", async () => {
    const started = await startServer({
      env: {
        CHAIN: "bsc-testnet",
        TREASURY_ADDRESS: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
        MASTER_KEY: "ab".repeat(32),
        // Nothing listens on port 1: the preflight's RPC check fails at once.
        RPC_URL: "https://user:pass-secret@127.0.0.1:1/key-secret?apikey=query-secret",
      },
    }).then(
      async (server) => {
        await server.stop();
        return "started";
      },
      (error: Error) => error.message,
    );
    expect(started).toContain(
      "Cannot start: the preflight of bsc-testnet (https://127.0.0.1:1) failed, nothing was started",
    );
    expect(started).toContain("FAIL RPC: reachable: the RPC did not answer eth_chainId");
    expect(started).not.toMatch(/Superadmin access key/);
    expect(started).not.toMatch(/secret/);
  });

  test("sends test BNB from the faucet to any address, to a visitor without a key too", async ({
    server,
  }) => {
    const to = "0x2222222222222222222222222222222222222222";
    const answer = await apiClient(server.url, null).post("/api/dev/faucet", {
      address: to,
      amount: "2.5",
    });
    expect(answer).toMatchObject({ success: true, amount: "2.5" });
    const client = createPublicClient({ transport: http(server.rpcUrl) });
    expect(await client.getBalance({ address: to })).toBe(parseEther("2.5"));
  });

  test("says how to reset when the chain state is gone but the database is not", async () => {
    rmSync(path.join(dataDir, "chain", "state.json"));
    const result = spawnSync(process.execPath, serverArgs(), {
      cwd: path.resolve(import.meta.dirname, ".."),
      env: { ...process.env, DATA_DIR: dataDir, PORT: "0", ANVIL_PORT: "27991", DATABASE_URL: "" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `the local chain state in ${path.join(dataDir, "chain")} is gone`,
    );
    expect(result.stderr).toContain(`Delete ${dataDir} to start again`);
  });

  test("stops with one line naming every bad variable", () => {
    const result = spawnSync(process.execPath, serverArgs(), {
      cwd: path.resolve(import.meta.dirname, ".."),
      env: { ...process.env, CHAIN: "ethereum", PORT: "http", DATA_DIR: dataDir },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^Cannot start: invalid configuration: .*PORT.*CHAIN="ethereum"/);
  });
});
