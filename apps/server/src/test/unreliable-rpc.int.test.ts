import { getFreePort, type StartAnvilReturnType, startAnvil } from "@bundler/chain";
import { type Hex, keccak256 } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { crashServer } from "./crash-server.ts";
import {
  startUnreliableRpc,
  type UnreliableRpc,
  type UnreliableRpcOptions,
} from "./unreliable-rpc.ts";

let anvil: StartAnvilReturnType;
const opened: UnreliableRpc[] = [];
const sender = privateKeyToAccount(generatePrivateKey());
let nonce = 0;

/** One JSON-RPC request (a call or a batch) at `url`: its answer, or how it failed. */
const post = async (url: string, body: unknown) => {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, json: text ? JSON.parse(text) : undefined };
  } catch {
    return { status: 0, text: "", json: undefined };
  }
};
const call = (method: string, params: unknown[] = [], id = 1) => ({
  jsonrpc: "2.0",
  id,
  method,
  params,
});
const node = async <T>(method: string, params: unknown[] = []): Promise<T> =>
  (await post(anvil.rpcUrl, call(method, params))).json.result as T;
const head = async () => BigInt(await node<string>("eth_blockNumber"));
const sorted = <T extends bigint | number>(values: Iterable<T>) =>
  [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const batchOf = (n: number, method: string, params: unknown[]) =>
  Array.from({ length: n }, (_, i) => call(method, params, i));

/** A proxy in front of the test's anvil: no drops and no delay unless `options` say so. */
const proxy = async (options: Partial<UnreliableRpcOptions> = {}) => {
  const rpc = await startUnreliableRpc({
    upstream: () => anvil.rpcUrl,
    seed: 1,
    dropRate: 0,
    delayMs: () => 0,
    ...options,
  });
  opened.push(rpc);
  return rpc;
};

/** Sends a transaction from the dev account (straight to anvil) and mines it; answers its block. */
const mined = async (data: Hex, to?: Hex) => {
  const raw = await sender.signTransaction({
    chainId: 31337,
    nonce: nonce++,
    gas: 100_000n,
    gasPrice: 2_000_000_000n,
    data,
    ...(to ? { to } : {}),
    type: "legacy",
  });
  await node("eth_sendRawTransaction", [raw]);
  await node("evm_mine");
  return { hash: keccak256(raw), block: await head() };
};

beforeAll(async () => {
  anvil = await startAnvil({
    port: await getFreePort(),
    chainId: 31337,
    blockTime: null,
    stateFile: null,
  });
  await node("anvil_mine", ["0xa"]);
  await node("anvil_setBalance", [sender.address, "0xde0b6b3a7640000"]);
});
afterEach(async () => {
  for (const rpc of opened.splice(0)) await rpc.close();
});
afterAll(async () => {
  await anvil?.stop();
});

describe("the unreliable RPC", () => {
  it("answers each call of a batch from a node 0 to 3 blocks behind, chosen per call", async () => {
    const rpc = await proxy();
    const top = await head();
    const answers = (await post(rpc.url, batchOf(60, "eth_blockNumber", []))).json as Array<{
      result: string;
    }>;
    const seen = new Set(answers.map((a) => BigInt(a.result)));
    expect(sorted(seen)).toEqual([top - 3n, top - 2n, top - 1n, top]);
  });

  it("answers null for a receipt above a lagging node's head, the receipt once every node has its block", async () => {
    const rpc = await proxy();
    const { hash } = await mined("0x");
    const before = (await post(rpc.url, batchOf(60, "eth_getTransactionReceipt", [hash])))
      .json as Array<{ result: unknown }>;
    expect(before.some((a) => a.result === null)).toBe(true);
    expect(before.some((a) => a.result !== null)).toBe(true);
    expect(rpc.stats.hiddenReceipts).toBe(before.filter((a) => a.result === null).length);

    await node("anvil_mine", ["0x3"]);
    const after = (await post(rpc.url, batchOf(30, "eth_getTransactionReceipt", [hash])))
      .json as Array<{ result: unknown }>;
    expect(after.every((a) => a.result !== null)).toBe(true);
  });

  it("reads a nonce at a lagging node's head for latest and pending alike", async () => {
    const rpc = await proxy();
    const before = BigInt(
      await node<string>("eth_getTransactionCount", [sender.address, "latest"]),
    );
    await mined("0x");
    for (const tag of ["latest", "pending"]) {
      const answers = (
        await post(rpc.url, batchOf(60, "eth_getTransactionCount", [sender.address, tag]))
      ).json as Array<{ result: string }>;
      const nonces = new Set(answers.map((a) => BigInt(a.result)));
      expect(sorted(nonces)).toEqual([before, before + 1n]);
    }
  });

  it("answers header not found for a state read at a block above a lagging node's head", async () => {
    const rpc = await proxy();
    const top = await head();
    const answers = (
      await post(rpc.url, batchOf(40, "eth_getBalance", [sender.address, `0x${top.toString(16)}`]))
    ).json as Array<{ result?: string; error?: { message: string } }>;
    expect(answers.some((a) => a.error?.message === "header not found")).toBe(true);
    expect(answers.some((a) => a.result !== undefined)).toBe(true);
  });

  it("clamps eth_getLogs to a lagging node's head", async () => {
    const rpc = await proxy();
    // Creation code that emits one empty LOG0 and deploys nothing.
    const { block } = await mined("0x60006000a000");
    const from = `0x${block.toString(16)}`;
    for (const toBlock of ["latest", from]) {
      const answers = (
        await post(rpc.url, batchOf(60, "eth_getLogs", [{ fromBlock: from, toBlock }]))
      ).json as Array<{ result: unknown[] }>;
      const counts = new Set(answers.map((a) => a.result.length));
      expect(sorted(counts)).toEqual([0, 1]);
    }
  });

  it("refuses eth_getLogs over its range (5,000 blocks unless told) as public nodes do", async () => {
    const rpc = await proxy({ maxLag: 0, maxLogRange: 100 });
    await node("anvil_mine", ["0x70", "0x0"]);
    const top = await head();
    const over = await post(
      rpc.url,
      call("eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest" }]),
    );
    expect(over.json.error).toEqual({ code: -32000, message: "exceed maximum block range: 100" });
    const within = await post(
      rpc.url,
      call("eth_getLogs", [{ fromBlock: `0x${(top - 99n).toString(16)}`, toBlock: "latest" }]),
    );
    expect(within.json.result).toEqual([]);
    expect(rpc.stats.refusedLogRanges).toBe(1);
  });

  it("drops answers by closing the connection or answering 502 without a body", async () => {
    const rpc = await proxy({ dropRate: 0.3 });
    const outcomes = [];
    for (let i = 0; i < 80; i++) outcomes.push(await post(rpc.url, call("eth_chainId")));
    const closed = outcomes.filter((o) => o.status === 0).length;
    const bare502 = outcomes.filter((o) => o.status === 502 && o.text === "").length;
    expect(closed).toBeGreaterThan(0);
    expect(bare502).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.status === 200).length).toBe(80 - closed - bare502);
    expect(rpc.stats.dropped).toEqual({ close: closed, "502": bare502 });
  });

  it("draws the same faults again from the same seed", async () => {
    const run = async (seed: number) => {
      const rpc = await proxy({ seed, dropRate: 0.2 });
      const seen = [];
      for (let i = 0; i < 40; i++) {
        const answer = await post(rpc.url, call("eth_blockNumber"));
        seen.push(answer.status === 200 ? answer.json.result : answer.status);
      }
      return seen;
    };
    const first = await run(7);
    expect(await run(7)).toEqual(first);
    expect(await run(8)).not.toEqual(first);
  });

  it("delays each answer as its distribution draws", async () => {
    const rpc = await proxy({ delayMs: (draw) => 150 + Math.floor(draw * 100) });
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await post(rpc.url, call("eth_chainId"));
      const took = performance.now() - started;
      expect(took).toBeGreaterThanOrEqual(149);
      expect(took).toBeLessThan(1000);
    }
  });

  it("passes a raw transaction through to the node unchanged", async () => {
    const rpc = await proxy({ maxLag: 3 });
    const raw = await sender.signTransaction({
      chainId: 31337,
      nonce: nonce++,
      gas: 21_000n,
      gasPrice: 2_000_000_000n,
      to: sender.address,
      type: "legacy",
    });
    const answer = await post(rpc.url, call("eth_sendRawTransaction", [raw]));
    expect(answer.json.result).toBe(keccak256(raw));
    const pooled = await node<{ input: string } | null>("eth_getTransactionByHash", [
      keccak256(raw),
    ]);
    expect(pooled).not.toBeNull();
    await node("evm_mine");
  });
});

describe("a real server behind the unreliable RPC", () => {
  it("reads its local chain through LOCAL_RPC_URL while its builder stays behind", async () => {
    let builderUrl = () => "";
    const rpc = await startUnreliableRpc({
      upstream: () => builderUrl(),
      seed: 1,
      dropRate: 0,
      delayMs: () => 0,
    });
    opened.push(rpc);
    const server = crashServer(
      "unreliable-rpc",
      { LOCAL_RPC_URL: rpc.url },
      { postgres: process.env.DATABASE_URL },
    );
    builderUrl = server.builderUrl;
    try {
      await server.start();
      expect(server.process.printed()).toContain(
        `reads and transactions through LOCAL_RPC_URL (${rpc.url})`,
      );
      const seen = rpc.stats.requests;
      // The block watcher follows the head through the proxy, every 250 ms.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(rpc.stats.requests).toBeGreaterThan(seen);
      expect(rpc.stats.upstreamDown).toBe(0);
    } finally {
      await server.remove();
    }
  });
});
