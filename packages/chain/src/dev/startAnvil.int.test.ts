import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPublicClient, http } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { getFreePort } from "./getFreePort.ts";
import { startAnvil } from "./startAnvil.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "anvil-test-"));
  dirs.push(dir);
  return dir;
};
const anvilsOn = (port: number) => {
  try {
    return execFileSync("pgrep", ["-f", `anvil.*--port ${port}`])
      .toString()
      .trim()
      .split("\n")
      .filter(Boolean);
  } catch {
    return [];
  }
};

describe("startAnvil", () => {
  it("mines a block every second and keeps the chain across a restart", async () => {
    const port = await getFreePort();
    const stateFile = path.join(tempDir(), "state.json");
    const first = await startAnvil({ port, chainId: 31337, blockTime: 1, stateFile });
    const client = createPublicClient({ transport: http(first.rpcUrl) });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const before = await client.getBlockNumber();
    expect(before).toBeGreaterThanOrEqual(2n);
    await first.stop();

    const second = await startAnvil({ port, chainId: 31337, blockTime: 1, stateFile });
    expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(before);
    expect(await client.getChainId()).toBe(31337);
    await second.stop();
    expect(anvilsOn(port)).toEqual([]);
  });

  it("says why when the port is taken", async () => {
    const port = await getFreePort();
    const running = await startAnvil({ port, chainId: 31337, blockTime: 1, stateFile: null });
    await expect(
      startAnvil({ port, chainId: 31337, blockTime: 1, stateFile: null }),
    ).rejects.toThrow(/anvil stopped before listening/);
    await running.stop();
  });

  it("does not outlive a parent that is killed with SIGKILL", async () => {
    const port = await getFreePort();
    const script = `import { startAnvil } from ${JSON.stringify(path.resolve(import.meta.dirname, "startAnvil.ts"))};
      await startAnvil({ port: ${port}, chainId: 31337, blockTime: 1, stateFile: null });
      console.log("up");
      setInterval(() => {}, 1000);`;
    const parent = spawn(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    await new Promise<void>((resolve) => parent.stdout.once("data", () => resolve()));
    expect(anvilsOn(port).length).toBeGreaterThan(0);
    parent.kill("SIGKILL");
    const deadline = Date.now() + 10_000;
    while (anvilsOn(port).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(anvilsOn(port)).toEqual([]);
  });
});
