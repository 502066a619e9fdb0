// A JSON-RPC proxy (node:http on 127.0.0.1, a port in the bench range) that forwards every
// HTTP request to a target and records it: how many HTTP requests, how many JSON-RPC calls,
// which methods, and when each request came in and was answered. `delayMs` holds every request
// that long before forwarding it: a remote node's round trip on a loopback chain.
import { createServer, type Server } from "node:http";
import { freePort } from "./server.ts";

export interface ProxiedRequest {
  /** Whether the body was a JSON-RPC batch (an array). */
  batch: boolean;
  methods: string[];
  /** The parsed JSON-RPC message(s), as sent. */
  calls: Array<{ method: string; params?: unknown[] }>;
  /** performance.now() when the request arrived and when its answer was sent. */
  receivedAt: number;
  answeredAt: number;
}

export interface RpcProxy {
  url: string;
  requests: ProxiedRequest[];
  /** JSON-RPC calls seen (a batch of 400 is 400 calls in one HTTP request). */
  calls(): number;
  reset(): void;
  close(): Promise<void>;
}

export const startRpcProxy = async (
  target: string,
  { delayMs = 0 }: { delayMs?: number } = {},
): Promise<RpcProxy> => {
  const requests: ProxiedRequest[] = [];
  const server: Server = createServer(async (request, response) => {
    const receivedAt = performance.now();
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    let calls: ProxiedRequest["calls"] = [];
    let batch = false;
    try {
      const message = JSON.parse(body) as ProxiedRequest["calls"][number] | ProxiedRequest["calls"];
      batch = Array.isArray(message);
      calls = Array.isArray(message) ? message : [message];
    } catch {
      // Forwarded as is; the target answers the parse error.
    }
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    try {
      const upstream = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      const text = await upstream.text();
      response.writeHead(upstream.status, { "content-type": "application/json" });
      response.end(text);
    } catch (error) {
      response.writeHead(502, { "content-type": "text/plain" });
      response.end(`proxy: ${(error as Error).message}`);
    }
    requests.push({
      batch,
      methods: calls.map((call) => call.method),
      calls,
      receivedAt,
      answeredAt: performance.now(),
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    calls: () => requests.reduce((sum, r) => sum + r.calls.length, 0),
    reset: () => {
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
