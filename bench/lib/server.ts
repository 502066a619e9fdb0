// Starts the real server (`apps/server/src/main.ts`, which spawns anvil) as a child
// process on private ports, times it until ready, and stops it cleanly.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { serverArgs } from "../../scripts/build-server.mjs";

export const root = path.resolve(import.meta.dirname, "../..");
const HOST = "127.0.0.1";
/** Benchmarks keep to this range so they never collide with tests or a dev server. */
const PORT_RANGE = { min: 27000, max: 27999 };
const READY_LINE = "is ready at";

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ host: HOST, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });

/** A free port in 27000-27999 on 127.0.0.1, not one of `avoid`. */
export const freePort = async (avoid: readonly number[] = []): Promise<number> => {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = PORT_RANGE.min + Math.floor(Math.random() * (PORT_RANGE.max - PORT_RANGE.min + 1));
    if (!avoid.includes(port) && (await portIsFree(port))) return port;
  }
  throw new Error(`no free port in ${PORT_RANGE.min}-${PORT_RANGE.max}`);
};

export const makeDataDir = (): string => mkdtempSync(path.join(tmpdir(), "bundler-bench-"));

export const removeDir = (dir: string): void => rmSync(dir, { recursive: true, force: true });

/** Pids of anvil processes (or their shell guard) listening on `port`. */
export const anvilPids = (port: number): number[] => {
  let listing: string;
  try {
    listing = execFileSync("pgrep", ["-af", "anvil"], { encoding: "utf8" });
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
  const flag = new RegExp(`--port ${port}(\\s|$)`);
  return listing
    .split("\n")
    .filter((line) => flag.test(line))
    .map((line) => Number.parseInt(line, 10))
    .filter((pid) => Number.isInteger(pid) && pid !== process.pid);
};

export interface RunningServer {
  url: string;
  /** The server process (not anvil). */
  pid: number;
  port: number;
  anvilPort: number;
  dataDir: string;
  /** Wall time from spawn to the "is ready at" line. */
  readySeconds: number;
  /** The local chain's builder URL from the banner (what LOCAL_BUILDER_URL attaches to). */
  builderUrl: string | null;
  /** The second local builder's URL from the banner (local-slow), when one runs. */
  slowBuilderUrl: string | null;
  /** The superadmin key the banner shows on a fresh local data dir. */
  superadminKey: string | null;
  /** SIGINT, wait for exit (SIGKILL after a timeout), then make sure anvil is gone. */
  stop(): Promise<void>;
}

const waitForExit = (child: ChildProcess, timeoutMs: number) =>
  new Promise<boolean>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Live servers, so an interrupted benchmark can still stop them. */
const live = new Set<RunningServer>();

/**
 * CPU time (user + system, ms) the process `pid` has used so far, from /proc (Linux): what a
 * server spends per request, independent of how loaded the machine is.
 */
export const cpuMsOf = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces): state is 3rd, utime 14th, stime 15th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS;
};
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

export const stopAllServers = async (): Promise<void> => {
  await Promise.all([...live].map((server) => server.stop()));
};

export const startServer = async (options: {
  dataDir: string;
  env?: Record<string, string>;
  /** Extra node flags for the server process (`--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeArgs?: string[];
  readyTimeoutMs?: number;
}): Promise<RunningServer> => {
  const port = await freePort();
  const anvilPort = await freePort([port]);
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...serverArgs()], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: options.dataDir,
      PORT: String(port),
      ANVIL_PORT: String(anvilPort),
      HOST,
      LOG_LEVEL: "warn",
      RATE_LIMIT_PER_MINUTE: "100000000",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });

  let stopped: Promise<void> | undefined;
  const server: RunningServer = {
    url: `http://${HOST}:${port}`,
    pid: child.pid ?? 0,
    port,
    anvilPort,
    dataDir: options.dataDir,
    readySeconds: Number.NaN,
    builderUrl: null,
    slowBuilderUrl: null,
    superadminKey: null,
    stop: () => {
      stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill("SIGINT");
          if (!(await waitForExit(child, 20_000))) {
            process.stderr.write(`bench: server ${child.pid} ignored SIGINT, killing it\n`);
            child.kill("SIGKILL");
            await waitForExit(child, 5_000);
          }
        }
        // anvil's guard stops it once the server's pipe closes; give it a moment.
        for (let attempt = 0; attempt < 50 && anvilPids(anvilPort).length > 0; attempt++)
          await sleep(100);
        const leftovers = anvilPids(anvilPort);
        if (leftovers.length > 0) {
          process.stderr.write(
            `bench: anvil left running on ${anvilPort} (${leftovers}), killing\n`,
          );
          for (const pid of leftovers) {
            try {
              process.kill(pid, "SIGKILL");
            } catch {}
          }
        }
        live.delete(server);
      })();
      return stopped;
    },
  };
  live.add(server);

  // Output is kept (tail only) for error messages and never echoed: it holds the superadmin key.
  let output = "";
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server not ready after ${options.readyTimeoutMs ?? 90_000} ms`)),
      options.readyTimeoutMs ?? 90_000,
    );
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
      if (output.includes(READY_LINE)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      const tail = output.trim().split("\n").slice(-5).join(" | ");
      reject(new Error(`server exited before ready (${signal ?? code}): ${tail}`));
    });
  });
  try {
    await ready;
  } catch (error) {
    await server.stop();
    throw error;
  }
  server.readySeconds = (performance.now() - startedAt) / 1000;
  server.builderUrl = /builder (http:\/\/\S+)/.exec(output)?.[1] ?? null;
  server.slowBuilderUrl = /local-slow \(.*\): (http:\/\/\S+)/.exec(output)?.[1] ?? null;
  server.superadminKey = /Superadmin access key[^:]*: (\S+)/.exec(output)?.[1] ?? null;
  return server;
};
