import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { connect as connectTcp } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { getFreePort } from "@bundler/chain";
import { io as connect, type Socket } from "socket.io-client";
import { afterEach, describe, expect, it } from "vitest";
import { serverArgs } from "../../../scripts/build-server.mjs";
import { fromServerTemplate } from "./test/server-template.ts";

const root = path.resolve(import.meta.dirname, "../../..");

interface Started {
  child: ChildProcess;
  origin: string;
  key: string;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

let dataDir: string | undefined;
let started: Started | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  if (started && started.child.exitCode === null && started.child.signalCode === null) {
    started.child.kill("SIGKILL");
    await started.exit;
  }
  started = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

/** The real server process (the bundle npm start runs) on a copy of the template data dir. */
const startServer = async (): Promise<Started> => {
  dataDir = mkdtempSync(path.join(tmpdir(), "lb-shutdown-"));
  const key = (await fromServerTemplate(dataDir)) ?? "";
  const port = await getFreePort();
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, serverArgs(), {
    cwd: root,
    env: {
      ...inherited,
      LOG_LEVEL: "warn",
      CHAIN: "local",
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      PORT: String(port),
      ANVIL_PORT: String(await getFreePort()),
      RATE_LIMIT_PER_MINUTE: "1000000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server not ready:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("is ready at")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    void exit.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited before it was ready:\n${output}`));
    });
  });
  started = { child, origin: `http://127.0.0.1:${port}`, key, output: () => output, exit };
  return started;
};

/** A socket.io connection with the key (websocket), connected. */
const openSocket = (origin: string, key: string) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect(origin, { auth: { key }, transports: ["websocket"] });
    sockets.push(socket);
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });

/** A request on a kept-alive connection; resolves with its status, or the error's code. */
const ask = (
  agent: Agent,
  origin: string,
  key: string,
  method: string,
  url: string,
  body?: object,
) =>
  new Promise<string>((resolve) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const req = request(
      `${origin}${url}`,
      {
        method,
        agent,
        headers: {
          "x-auth-key": key,
          ...(payload ? { "content-type": "application/json" } : {}),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(String(response.statusCode)));
        response.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
    req.end(payload);
  });

/** The local chain's builder URL from the banner. */
const builderUrlOf = (output: string) => {
  const url = /builder (http:\/\/\S+)/.exec(output)?.[1];
  if (!url) throw new Error(`no builder URL in:\n${output}`);
  return new URL(url);
};

/** Sends half of a JSON-RPC request to `url`, then resets the connection. */
const resetMidRequest = (url: URL) =>
  new Promise<void>((resolve, reject) => {
    const socket = connectTcp(Number(url.port), url.hostname, () => {
      socket.write(
        'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":',
      );
      setTimeout(() => {
        socket.resetAndDestroy();
        setTimeout(resolve, 500);
      }, 200);
    });
    socket.on("error", reject);
  });

describe("stopping on SIGTERM", () => {
  it("exits with code 0, within seconds and with no ECONNRESET, while sockets, kept-alive connections and requests are open and a chain client has hung up mid-request", async () => {
    const server = await startServer();
    const agent = new Agent({ keepAlive: true, maxSockets: 20 });
    await Promise.all([
      openSocket(server.origin, server.key),
      openSocket(server.origin, server.key),
    ]);
    // Kept-alive connections, idle after a first answer.
    expect(
      await Promise.all(
        Array.from({ length: 10 }, () =>
          ask(agent, server.origin, server.key, "GET", "/api/health"),
        ),
      ),
    ).toEqual(Array.from({ length: 10 }, () => "200"));
    // Requests in flight when the signal comes: reads that touch the database and the chain.
    const inFlight = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? ask(agent, server.origin, server.key, "POST", "/api/bundle/tx/status", {
            txHashes: [`0x${"ab".repeat(32)}`],
          })
        : ask(agent, server.origin, server.key, "GET", "/api/draft/list?page=1"),
    );
    // A client of the local chain's builder (a call the server aborted, a wallet) that hangs
    // up mid-request, resetting its connection.
    await resetMidRequest(builderUrlOf(server.output()));
    const signalled = performance.now();
    server.child.kill("SIGTERM");
    const exited = await server.exit;
    const stoppedInMs = performance.now() - signalled;
    await Promise.all(inFlight);
    agent.destroy();

    expect(server.output()).not.toMatch(/ECONNRESET|Uncaught|unhandled/i);
    expect(exited).toEqual({ code: 0, signal: null });
    // The requests under way are answered; kept-alive connections do not hold the stop.
    expect(stoppedInMs).toBeLessThan(15_000);
  }, 120_000);
});
