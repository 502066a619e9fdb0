import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getFreePort } from "@bundler/chain";
import { fromServerTemplate } from "../../apps/server/src/test/server-template.ts";
import { serverArgs } from "../../scripts/build-server.mjs";

const root = path.resolve(import.meta.dirname, "../..");

export interface RunningServer {
  url: string;
  port: number;
  /** The local chain's JSON-RPC endpoint. */
  rpcUrl: string;
  dataDir: string;
  /** Printed by the first start of an empty data dir. */
  superadminKey: string | null;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the real server the way `npm start` does (embedded database, local chain),
 * in its own data dir, on free ports. Without a `dataDir`, on the local chain and the embedded
 * database, it starts from a copy of what a first start leaves (server-template.ts: the seconds
 * of initdb and deployment are spent once a run); a test of the first start gives a `dataDir`,
 * a test that restarts on the same data gives one with `fromTemplate`.
 */
export const startServer = async (
  options: {
    dataDir?: string;
    port?: number;
    env?: Record<string, string>;
    /** A given, empty `dataDir` starts from the template too (it is kept after `stop`). */
    fromTemplate?: boolean;
  } = {},
): Promise<RunningServer> => {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "bundler-e2e-"));
  const env = options.env ?? {};
  const localChain = (env.CHAIN ?? "local") === "local" && !env.RPC_URL && !env.DATABASE_URL;
  const copiedKey =
    (options.dataDir && !options.fromTemplate) || !localChain
      ? null
      : await fromServerTemplate(dataDir, { env });
  const port = options.port ?? (await getFreePort());
  const anvilPort = await getFreePort();
  const child: ChildProcess = spawn(process.execPath, serverArgs(), {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      ANVIL_PORT: String(anvilPort),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      FREE_KEY_LIMIT_PER_HOUR: "1000",
      // Every browser context and API call of a file comes from 127.0.0.1: the per-address
      // limits (600 requests and 30 faucet calls a minute) are one user's, not a whole file's:
      // a file whose tests each launch a bundle reached the faucet's.
      RATE_LIMIT_PER_MINUTE: "100000",
      FAUCET_PER_MINUTE: "100000",
      FREE_KEYS_PER_IP_PER_DAY: "1000",
      DATABASE_URL: "",
      // Four blocks a second: what a user waits a block for here, a test waits a quarter of.
      BLOCK_TIME_SECONDS: "0.25",
      // A file that fails while this server is still starting never stops it: it stops itself
      // once this process (which holds its stdin) is gone.
      STOP_WHEN_STDIN_CLOSES: "1",
      ...options.env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server not ready in 60 s:\n${output}`)),
      60_000,
    );
    const check = () => {
      if (output.includes("is ready at")) {
        clearTimeout(timer);
        child.stdout?.off("data", check);
        setTimeout(resolve, 50);
      }
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  const superadminKey = /Superadmin access key[^:]*: (\S+)/.exec(output)?.[1] ?? copiedKey;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    rpcUrl: `http://127.0.0.1:${anvilPort}`,
    dataDir,
    superadminKey,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGINT");
        await exited;
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/**
 * The local chain's block rhythm, through its dev builder (the URL the banner prints): a test
 * that must see what lands in the block right after another pauses the chain and mines by hand.
 */
export const chainControl = (server: RunningServer) => {
  const url = /builder (http:\/\/\S+)/.exec(server.output())?.[1];
  if (!url) throw new Error(`no builder URL in the server's banner:\n${server.output()}`);
  const call = async (method: string, params: unknown[]) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const answer = (await response.json()) as { error?: { message: string } };
    if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  };
  return {
    /** No block until `mine` or `resume`. */
    pause: () => call("dev_setBlockTime", [0]),
    /** A block every `seconds` again (the servers' 0.25 s). */
    resume: (seconds = 0.25) => call("dev_setBlockTime", [seconds]),
    mine: () => call("dev_mine", []),
  };
};
