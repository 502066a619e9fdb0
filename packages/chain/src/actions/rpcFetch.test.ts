import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicClient, TimeoutError } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import { rpcFetch, rpcTransport } from "./rpcFetch.ts";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A loopback server answering with `handle`; resolves to its URL. */
const serve = async (
  handle: (request: IncomingMessage, body: string, response: ServerResponse) => void,
): Promise<string> => {
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => handle(request, body, response));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

describe("rpcFetch", () => {
  it("posts the body and answers the status, headers and text", async () => {
    const url = await serve((request, body, response) => {
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({ method: request.method, type: request.headers["content-type"], body }),
      );
    });
    const response = await rpcFetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"jsonrpc":"2.0"}',
    });
    expect(response.ok).toBe(true);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json");
    expect(await response.json()).toEqual({
      method: "POST",
      type: "application/json",
      body: '{"jsonrpc":"2.0"}',
    });
  });

  it("answers an error status as not ok, with its body", async () => {
    const url = await serve((_request, _body, response) => {
      response.statusCode = 503;
      response.end("busy");
    });
    const response = await rpcFetch(url, { method: "POST", body: "{}" });
    expect(response.ok).toBe(false);
    expect(response.status).toBe(503);
    expect(await response.text()).toBe("busy");
  });

  it("rejects with an AbortError when its signal aborts before the answer", async () => {
    const url = await serve(() => {}); // never answers
    const controller = new AbortController();
    const pending = rpcFetch(url, { method: "POST", body: "{}", signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("rejects when the connection stays silent past its idle timeout", async () => {
    const url = await serve(() => {}); // never answers
    await expect(rpcFetch(url, { method: "POST", body: "{}", idleTimeoutMs: 50 })).rejects.toThrow(
      /no answer from 127\.0\.0\.1/,
    );
  });

  it("rejects when nothing listens at the address", async () => {
    const url = await serve(() => {});
    const closed = servers.pop() as Server;
    await new Promise((resolve) => closed.close(resolve));
    await expect(rpcFetch(url, { method: "POST", body: "{}" })).rejects.toMatchObject({
      code: "ECONNREFUSED",
    });
  });

  it("keeps one connection for calls made one after another", async () => {
    const sockets = new Set<unknown>();
    const url = await serve((request, _body, response) => {
      sockets.add(request.socket);
      response.end("{}");
    });
    for (let call = 0; call < 5; call++) await (await rpcFetch(url, { method: "POST" })).text();
    expect(sockets.size).toBe(1);
  });
});

describe("rpcTransport", () => {
  it("gives viem the node's answer", async () => {
    const url = await serve((_request, body, response) => {
      const { id } = JSON.parse(body) as { id: number };
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ jsonrpc: "2.0", id, result: "0x38" }));
    });
    const client = createPublicClient({ transport: rpcTransport(url) });
    expect(await client.getChainId()).toBe(56);
  });

  it("ends a call the node does not answer with viem's TimeoutError", async () => {
    const url = await serve(() => {}); // never answers
    const client = createPublicClient({
      transport: rpcTransport(url, { timeout: 100, retryCount: 0 }),
    });
    await expect(client.getChainId()).rejects.toBeInstanceOf(TimeoutError);
  });
});
