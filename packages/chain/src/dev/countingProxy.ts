import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One HTTP request seen by the proxy: the JSON-RPC methods it carried. */
export interface SeenRequest {
  batch: boolean;
  methods: string[];
}

/** A node:http proxy in front of anvil that records every HTTP request it forwards. */
export const startCountingProxy = async (target: string) => {
  const seen: SeenRequest[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const message = JSON.parse(body) as { method: string } | Array<{ method: string }>;
    seen.push({
      batch: Array.isArray(message),
      methods: (Array.isArray(message) ? message : [message]).map((m) => m.method),
    });
    const upstream = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    response.writeHead(upstream.status, { "content-type": "application/json" });
    response.end(await upstream.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    reset: () => {
      seen.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
