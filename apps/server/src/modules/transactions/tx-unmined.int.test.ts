import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenTx } from "./transactions.repository.ts";
import { confirmOutOfWindow } from "./tx-unmined.ts";

// A full node as BSC runs them: it keeps the state of its last 128 blocks only, and answers
// "missing trie node" for an older one. The sender's nonce (5) was never used.
const HEAD = 1_000n;
const asked: bigint[] = [];
let node: Server;
let url: string;
beforeAll(async () => {
  node = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const calls = JSON.parse(body) as Array<{ id: number; params: [string, string] }>;
      const answers = calls.map(({ id, params }) => {
        const block = BigInt(params[1]);
        asked.push(block);
        return block < HEAD - 128n
          ? { jsonrpc: "2.0", id, error: { code: -32000, message: "missing trie node" } }
          : { jsonrpc: "2.0", id, result: "0x5" };
      });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(answers));
    });
  });
  await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(node.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => node.close(resolve)));

const bundleRow = (validUntilBlock: bigint) =>
  ({ from: "0x000000000000000000000000000000000000bEEF", nonce: 5, validUntilBlock }) as OpenTx;

describe("a bundle transaction past its window, its sender's nonce unused", () => {
  it("is confirmed dropped when its window ended long before the node's kept state", async () => {
    asked.length = 0;
    const row = bundleRow(200n);
    expect(await confirmOutOfWindow(url, [row], HEAD)).toEqual([row]);
    expect(asked).toEqual([HEAD - 2n]);
  });

  it("is read at the window's last block when that block is the later", async () => {
    asked.length = 0;
    const row = bundleRow(HEAD - 1n);
    expect(await confirmOutOfWindow(url, [row], HEAD)).toEqual([row]);
    expect(asked).toEqual([HEAD - 1n]);
  });

  it("is not confirmed while its nonce shows used", async () => {
    const row = { ...bundleRow(200n), nonce: 4 } as OpenTx;
    expect(await confirmOutOfWindow(url, [row], HEAD)).toEqual([]);
  });
});
