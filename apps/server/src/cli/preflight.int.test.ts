import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getFreePort } from "@bundler/chain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestChain, type TestChain } from "../test/chain.ts";
import { ServerProcess } from "../test/server-process.ts";
import { fromServerTemplate } from "../test/server-template.ts";

// `npm run preflight` as an operator runs it, and a start off the local chain that refuses to
// go on with a setup that fails an essential check.
const root = path.resolve(import.meta.dirname, "../../../..");
const dirs: string[] = [];
let testChain: TestChain;

beforeAll(async () => {
  testChain = await startTestChain(Buffer.alloc(32, 42));
});
afterAll(async () => {
  await testChain?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "lb-preflight-"));
  dirs.push(dir);
  return dir;
};

/** Runs `npm run preflight`'s script with `env`: its exit code and what it printed. */
const preflight = (env: Record<string, string>) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const { DATABASE_URL: _ignored, ...inherited } = process.env;
    const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/cli/preflight.ts"], {
      cwd: root,
      env: { ...inherited, LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("exit", (code) => resolve({ code, output }));
  });

/** What a BSC testnet setup pointed at the local chain needs to get as far as the checks. */
const testnetEnv = async () => ({
  CHAIN: "bsc-testnet",
  RPC_URL: testChain.chain.rpcUrl,
  DATA_DIR: dataDir(),
  MASTER_KEY: "ab".repeat(32),
  TREASURY_ADDRESS: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  PORT: String(await getFreePort()),
});

describe("npm run preflight", () => {
  it("passes on the local chain npm start made, one line per check", async () => {
    const dir = dataDir();
    await fromServerTemplate(dir);
    const { code, output } = await preflight({
      DATA_DIR: dir,
      ANVIL_PORT: String(await getFreePort()),
    });
    expect(output).toContain("Preflight of local");
    expect(output).toMatch(/ok {3}RPC: eth_simulateV1: answers eth_simulateV1/);
    expect(output).toMatch(/ok {3}Keys and money: master key: the master key /);
    expect(output).toContain("Ready: every essential check passed.");
    expect(code).toBe(0);
  }, 120_000);

  it("fails with the words of each failed check, exiting 1", async () => {
    const { code, output } = await preflight(await testnetEnv());
    expect(output).toContain(
      "FAIL RPC: chain id: the RPC is on chain 31337, but CHAIN=bsc-testnet expects chain 97",
    );
    expect(output).toContain("Not ready:");
    expect(code).toBe(1);
  }, 120_000);
});

describe("a start off the local chain", () => {
  it("refuses to start when an essential check fails, with the same words", async () => {
    const server = new ServerProcess(await testnetEnv());
    const started = await server.start().then(
      () => "started",
      (error: Error) => error.message,
    );
    await server.crash().catch(() => {});
    expect(started).toMatch(
      /Cannot start: the preflight of bsc-testnet \(http:\/\/127\.0\.0\.1:\d+\) failed, nothing was started/,
    );
    expect(started).toContain("the RPC is on chain 31337, but CHAIN=bsc-testnet expects chain 97");
  }, 120_000);
});
