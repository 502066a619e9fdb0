import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export interface StartAnvilParameters {
  port: number;
  host?: string;
  chainId: number;
  /**
   * Seconds between blocks (BSC's rhythm, slowed to one a second), or null for none: blocks
   * only on `evm_mine` (the dev builder keeps the rhythm itself, fractions of a second too).
   */
  blockTime: number | null;
  /** Where chain state is loaded from and saved to; null keeps it in memory. */
  stateFile: string | null;
  /** Seconds between state snapshots while running. */
  stateInterval?: number;
}

export interface StartAnvilReturnType {
  rpcUrl: string;
  pid: number;
  /** Stops anvil and waits until its state is written. */
  stop(): Promise<void>;
}

/** The anvil binary shipped inside the `@foundry-rs/anvil-<platform>` npm package. */
export const anvilBinary = (): string => {
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`);
  return path.join(path.dirname(manifest), "bin", "anvil");
};

/**
 * Spawns anvil behind a tiny shell guard that kills it when our stdin closes, so
 * anvil never outlives this process, even after a SIGKILL.
 *
 * @example
 * const chain = await startAnvil({ port: 8545, chainId: 31337, blockTime: 1, stateFile: "data/chain/state.json" });
 * await chain.stop();
 */
export const startAnvil = async (params: StartAnvilParameters): Promise<StartAnvilReturnType> => {
  const host = params.host ?? "127.0.0.1";
  const args = [
    "--host",
    host,
    "--port",
    String(params.port),
    "--chain-id",
    String(params.chainId),
    ...(params.blockTime === null ? ["--no-mining"] : ["--block-time", String(params.blockTime)]),
    "--order",
    "fifo",
    "--accounts",
    "2",
    "--balance",
    "1000000",
  ];
  if (params.stateFile) {
    mkdirSync(path.dirname(params.stateFile), { recursive: true });
    args.push("--state", params.stateFile, "--state-interval", String(params.stateInterval ?? 2));
  }
  const guard = [
    'exec 3<&0; bin="$1"; shift',
    '"$bin" "$@" </dev/null & pid=$!',
    "( cat <&3 >/dev/null; kill -TERM $pid 2>/dev/null ) &",
    "wait $pid",
  ].join("\n");
  const child = spawn("sh", ["-c", guard, "anvil-guard", anvilBinary(), ...args], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const rpcUrl = `http://${host}:${params.port}`;
  await waitForReady(child, rpcUrl);
  return {
    rpcUrl,
    pid: child.pid ?? -1,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.stdin?.end();
      }),
  };
};

const waitForReady = (child: ChildProcess, rpcUrl: string) =>
  new Promise<void>((resolve, reject) => {
    let output = "";
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
      if (output.includes("Listening on")) {
        // From here on the logs are drained and dropped, so anvil never blocks on a full pipe.
        child.stdout?.off("data", collect);
        child.stderr?.off("data", collect);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve();
      }
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    child.once("exit", (code) => {
      const reason = output.trim().split("\n").slice(-3).join(" ");
      reject(new Error(`anvil stopped before listening on ${rpcUrl} (exit ${code}): ${reason}`));
    });
  });
