import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getFreePort, profiles } from "@bundler/chain";
import type { Address } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app.ts";
import { localChainContext } from "./chain-context.ts";

// A request the chain node fails is the node's failure, said as such (503, try again), never
// the server's "Something went wrong" (500).
const nowhere = "0x000000000000000000000000000000000000dEaD" as Address;
const contracts = {
  launchpad: nowhere,
  helper: nowhere,
  router: nowhere,
  weth: nowhere,
} as unknown as Parameters<typeof localChainContext>[1]["contracts"];

let app: TestApp | undefined;
let node: Server | undefined;
afterEach(async () => {
  await app?.close();
  await new Promise((resolve) => (node ? node.close(resolve) : resolve(null)));
  app = node = undefined;
});

const balancesThrough = async (rpcUrl: string) => {
  const chain = localChainContext(
    profiles.local,
    { builderUrl: rpcUrl, contracts, launchSignerKey: `0x${"11".repeat(32)}`, graduationFunds: 0n },
    50,
  );
  app = await createTestApp({ chain });
  const key = await app.auth.mintKey("user");
  return app.server.inject({
    method: "POST",
    url: "/api/wallets/balances",
    headers: { "x-auth-key": key },
    payload: { addresses: [nowhere] },
  });
};

describe("a request the chain node fails", () => {
  it("answers 503 saying the node is behind when it has not seen the block asked", async () => {
    node = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        const calls = JSON.parse(body) as { id: number } | Array<{ id: number }>;
        const answer = (call: { id: number }) => ({
          jsonrpc: "2.0",
          id: call.id,
          error: { code: -32000, message: "header not found" },
        });
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(Array.isArray(calls) ? calls.map(answer) : answer(calls)));
      });
    });
    await new Promise<void>((resolve) => node?.listen(0, "127.0.0.1", resolve));
    const { port } = node.address() as AddressInfo;
    const response = await balancesThrough(`http://127.0.0.1:${port}`);
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toBe(
      "chain unavailable: the chain node could not serve that block (it is behind, or keeps no state for it); try again",
    );
  });

  it("answers 503 in words when nothing listens at the node's address", async () => {
    const response = await balancesThrough(`http://127.0.0.1:${await getFreePort()}`);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      success: false,
      error: "chain unavailable: the chain node did not answer; try again",
    });
  });

  it("answers 503 with the node's HTTP status when the node answers an error page", async () => {
    node = createServer((_request, response) => {
      response.writeHead(502, { "content-type": "text/html" });
      response.end("<html>Bad Gateway</html>");
    });
    await new Promise<void>((resolve) => node?.listen(0, "127.0.0.1", resolve));
    const { port } = node.address() as AddressInfo;
    const response = await balancesThrough(`http://127.0.0.1:${port}`);
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toBe(
      "chain unavailable: the chain node answered HTTP 502; try again",
    );
  });
});
