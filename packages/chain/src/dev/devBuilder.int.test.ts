import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  keccak256,
  parseEther,
  parseGwei,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devAccount } from "./devAccounts.ts";
import { type StartDevBuilderReturnType, startDevBuilder } from "./devBuilder.ts";
import { getFreePort } from "./getFreePort.ts";
import { type StartAnvilReturnType, startAnvil } from "./startAnvil.ts";

const FUNDER = devAccount(0);
const TIP: Address = "0x000000000000000000000000000000000000bEEF";
const REVERTER: Address = "0x00000000000000000000000000000000DeaDBeef";

let anvil: StartAnvilReturnType;
let builder: StartDevBuilderReturnType;
let client: ReturnType<typeof createPublicClient>;

const rpc = async (url: string, method: string, params: unknown[]) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
};

beforeAll(async () => {
  anvil = await startAnvil({
    port: await getFreePort(),
    chainId: 31337,
    blockTime: null,
    stateFile: null,
  });
  builder = await startDevBuilder({
    rpcUrl: anvil.rpcUrl,
    tipAddress: TIP,
    minTip: parseEther("0.0005"),
    maxTxs: 50,
    blockTime: 0.2,
  });
  client = createPublicClient({ transport: http(anvil.rpcUrl), cacheTime: 0 });
  // A contract whose every call reverts: PUSH1 0 PUSH1 0 REVERT.
  await rpc(anvil.rpcUrl, "anvil_setCode", [REVERTER, "0x60006000fd"]);
});
afterAll(async () => {
  await builder.close();
  await anvil.stop();
});

/** A legacy transfer signed by `from` (another account than the funder's, for strays). */
const signTransferFrom = (
  from: Pick<typeof FUNDER, "signTransaction">,
  nonce: number,
  to: Address,
  value: bigint,
  { gas = 21_000n, gasPrice = parseGwei("3") } = {},
): Promise<Hex> =>
  from.signTransaction({ chainId: 31337, nonce, to, value, gas, gasPrice, type: "legacy" });

const signTransfer = (nonce: number, to: Address, value: bigint, gas = 21_000n): Promise<Hex> =>
  signTransferFrom(FUNDER, nonce, to, value, { gas });

const nextNonce = () =>
  client.getTransactionCount({ address: FUNDER.address, blockTag: "pending" });

const blockNumber = async () => Number(await client.getBlockNumber({ cacheTime: 0 }));

describe("the dev builder's rhythm", () => {
  it("mines a block every blockTime seconds by itself, never faster", async () => {
    const next = async (after: number) => {
      while ((await blockNumber()) <= after) await new Promise((r) => setTimeout(r, 10));
      return blockNumber();
    };
    const first = await next(await blockNumber());
    const started = Date.now();
    await next(first + 2);
    // Three blocks after a fresh one, at 0.2 s each: at least 0.6 s (less a timer's slack).
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
  });

  it("mines a block at once on dev_mine and answers its number", async () => {
    await rpc(builder.url, "dev_setBlockTime", [0]);
    try {
      const before = await blockNumber();
      const mined = await rpc(builder.url, "dev_mine", []);
      expect(mined.result).toBe(before + 1);
      expect(await blockNumber()).toBe(before + 1);
    } finally {
      await rpc(builder.url, "dev_setBlockTime", [0.2]);
    }
  });

  it("mines nothing while dev_setBlockTime is 0, and keeps a sent transaction waiting", async () => {
    await rpc(builder.url, "dev_setBlockTime", [0]);
    try {
      const before = await blockNumber();
      const hash = await rpc(builder.url, "eth_sendRawTransaction", [
        await signTransfer(await nextNonce(), TIP, 1n),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await blockNumber()).toBe(before);
      await rpc(builder.url, "dev_setBlockTime", [0.2]);
      const receipt = await client.waitForTransactionReceipt({
        hash: hash.result as Hex,
        pollingInterval: 50,
      });
      expect(Number(receipt.blockNumber)).toBeGreaterThan(before);
    } finally {
      await rpc(builder.url, "dev_setBlockTime", [0.2]);
    }
  });

  it("refuses a negative block time", async () => {
    const answer = await rpc(builder.url, "dev_setBlockTime", [-1]);
    expect(answer.error?.message).toMatch(/invalid block time/);
  });
});

describe("the dev builder", () => {
  it("lands every transaction of a bundle in one block, in order", async () => {
    const nonce = await nextNonce();
    const recipients = Array.from(
      { length: 10 },
      () => privateKeyToAccount(generatePrivateKey()).address,
    );
    const txs = await Promise.all([
      ...recipients.map((to, i) => signTransfer(nonce + i, to, parseEther("0.01"))),
      signTransfer(nonce + recipients.length, TIP, parseEther("0.001")),
    ]);
    const answer = await rpc(builder.url, "eth_sendBundle", [
      { txs, maxBlockNumber: Number(await client.getBlockNumber()) + 10 },
    ]);
    expect(answer.error).toBeUndefined();
    const receipts = await Promise.all(
      hashes(txs).map((hash) => client.getTransactionReceipt({ hash })),
    );
    expect(new Set(receipts.map((r) => r.blockNumber)).size).toBe(1);
    expect(receipts.map((r) => r.transactionIndex)).toEqual(txs.map((_, i) => i));
    for (const to of recipients)
      expect(await client.getBalance({ address: to })).toBe(parseEther("0.01"));
  });

  it("leaves no trace when one transaction would revert, and names it", async () => {
    const nonce = await nextNonce();
    const head = await client.getBlockNumber();
    const victim = privateKeyToAccount(generatePrivateKey()).address;
    const txs = [
      await signTransfer(nonce, victim, parseEther("1")),
      await signTransfer(nonce + 1, REVERTER, 0n, 100_000n),
      await signTransfer(nonce + 2, TIP, parseEther("0.001")),
    ];
    const answer = await rpc(builder.url, "eth_sendBundle", [{ txs }]);
    expect(answer.error?.message).toMatch(
      new RegExp(`^transaction 1 \\(${hashes(txs)[1]}\\) would revert`),
    );
    expect(await client.getBalance({ address: victim })).toBe(0n);
    expect(await nextNonce()).toBe(nonce);
    for (const hash of hashes(txs)) {
      await expect(client.getTransactionReceipt({ hash })).rejects.toThrow();
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await client.getBlockNumber()).toBeGreaterThan(head);
    expect(await client.getBalance({ address: victim })).toBe(0n);
  });

  it("includes a reverting transaction the bundle allows to revert", async () => {
    const nonce = await nextNonce();
    const txs = [
      await signTransfer(nonce, REVERTER, 0n, 100_000n),
      await signTransfer(nonce + 1, TIP, parseEther("0.001")),
    ];
    const answer = await rpc(builder.url, "eth_sendBundle", [
      { txs, revertingTxHashes: [hashes(txs)[0]] },
    ]);
    expect(answer.error).toBeUndefined();
    const receipt = await client.getTransactionReceipt({ hash: hashes(txs)[0] as Hex });
    expect(receipt.status).toBe("reverted");
  });

  it("refuses a bundle whose tip is below the minimum", async () => {
    const nonce = await nextNonce();
    const txs = [await signTransfer(nonce, TIP, parseEther("0.0001"))];
    const answer = await rpc(builder.url, "eth_sendBundle", [{ txs }]);
    expect(answer.error?.message).toMatch(/^bundle tip too low/);
    expect(await nextNonce()).toBe(nonce);
  });

  it("refuses a bundle larger than its cap", async () => {
    const nonce = await nextNonce();
    const txs = await Promise.all(
      Array.from({ length: 51 }, (_, i) => signTransfer(nonce + i, TIP, parseEther("0.001"))),
    );
    const answer = await rpc(builder.url, "eth_sendBundle", [{ txs }]);
    expect(answer.error?.message).toBe(
      "bundle too large: 51 transactions, this builder takes at most 50",
    );
  });

  it("refuses a bundle past its maxBlockNumber", async () => {
    const nonce = await nextNonce();
    const txs = [await signTransfer(nonce, TIP, parseEther("0.001"))];
    const answer = await rpc(builder.url, "eth_sendBundle", [{ txs, maxBlockNumber: 1 }]);
    expect(answer.error?.message).toMatch(/^bundle expired/);
  });

  it("answers malformed requests with JSON-RPC errors", async () => {
    expect((await rpc(builder.url, "eth_sendBundle", [{ txs: [] }])).error).toEqual({
      code: -32602,
      message: "invalid txs: expected a non-empty array",
    });
    expect((await rpc(builder.url, "eth_sendBundle", [{ txs: ["0x1234"] }])).error?.code).toBe(
      -32602,
    );
    expect((await rpc(builder.url, "eth_sendBundle", [{ txs: ["nothex"] }])).error?.code).toBe(
      -32602,
    );
    expect(
      (await rpc(builder.url, "eth_sendBundle", [{ txs: ["0x01"], revertingTxHashes: ["x"] }]))
        .error?.code,
    ).toBe(-32602);
  });

  it("passes other methods through to the node", async () => {
    const answer = await rpc(builder.url, "eth_chainId", []);
    expect(answer.result).toBe("0x7a69");
  });

  it("answers a JSON-RPC batch as a batch, in order", async () => {
    const response = await fetch(builder.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 7, method: "eth_chainId", params: [] },
        { jsonrpc: "2.0", id: 8, method: "eth_getBalance", params: [TIP, "latest"] },
        { jsonrpc: "2.0", id: 9, method: "eth_sendBundle", params: [{ txs: [] }] },
      ]),
    });
    const answers = (await response.json()) as Array<{
      id: number;
      result?: unknown;
      error?: { code: number };
    }>;
    expect(answers.map((a) => a.id)).toEqual([7, 8, 9]);
    expect(answers[0]?.result).toBe("0x7a69");
    expect(answers[1]?.result).toMatch(/^0x/);
    expect(answers[2]?.error?.code).toBe(-32602);
  });

  it("passes a batch of reads and raw transactions to the node in one go", async () => {
    const nonce = await nextNonce();
    const raws = [await signTransfer(nonce, TIP, 1n), await signTransfer(nonce + 1, TIP, 1n)];
    const response = await fetch(builder.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(
        raws.map((raw, i) => ({
          jsonrpc: "2.0",
          id: i,
          method: "eth_sendRawTransaction",
          params: [raw],
        })),
      ),
    });
    const answers = (await response.json()) as Array<{ result?: Hex }>;
    expect(answers.map((a) => a.result)).toEqual(hashes(raws));
    await client.waitForTransactionReceipt({ hash: hashes(raws)[1] as Hex });
  });

  it("never lets two bundles sent at once share a block", async () => {
    const nonce = await nextNonce();
    const second = privateKeyToAccount(generatePrivateKey());
    await rpc(anvil.rpcUrl, "anvil_setBalance", [second.address, "0xDE0B6B3A7640000"]);
    const bundleA = [
      await signTransfer(nonce, TIP, parseEther("0.001")),
      await signTransfer(nonce + 1, TIP, parseEther("0.001")),
    ];
    const bundleB = await Promise.all(
      [0, 1].map((i) => signTransferFrom(second, i, TIP, parseEther("0.001"))),
    );
    const answers = await Promise.all(
      [bundleA, bundleB].map((txs) => rpc(builder.url, "eth_sendBundle", [{ txs }])),
    );
    expect(answers.map((a) => a.error)).toEqual([undefined, undefined]);
    const blocks = await Promise.all(
      [...hashes(bundleA), ...hashes(bundleB)].map(
        async (hash) => (await client.getTransactionReceipt({ hash })).blockNumber,
      ),
    );
    expect(blocks[0]).toBe(blocks[1]);
    expect(blocks[2]).toBe(blocks[3]);
    expect(blocks[0]).not.toBe(blocks[2]);
  });

  it("keeps ordinary transactions sent through it out of a bundle's block", async () => {
    const other = privateKeyToAccount(generatePrivateKey());
    await rpc(anvil.rpcUrl, "anvil_setBalance", [other.address, "0xDE0B6B3A7640000"]);
    const nonce = await nextNonce();
    const bundle = await Promise.all(
      Array.from({ length: 5 }, (_, i) => signTransfer(nonce + i, TIP, parseEther("0.001"))),
    );
    const ordinary = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        signTransferFrom(other, i, REVERTER.replace("DeaDBeef", "0000cafe") as Address, 1n, {
          gasPrice: parseGwei("50"),
        }),
      ),
    );
    const [answer] = await Promise.all([
      rpc(builder.url, "eth_sendBundle", [{ txs: bundle }]),
      ...ordinary.map((tx) => rpc(builder.url, "eth_sendRawTransaction", [tx])),
    ]);
    expect(answer?.error).toBeUndefined();
    const first = await client.getTransactionReceipt({ hash: keccak256(bundle[0] as Hex) });
    const block = await client.getBlock({ blockNumber: first.blockNumber });
    expect(block.transactions).toEqual(hashes(bundle));
  });

  it("lands a bundle although a transaction sent straight to the node joins its block", async () => {
    const other = privateKeyToAccount(generatePrivateKey());
    await rpc(anvil.rpcUrl, "anvil_setBalance", [other.address, "0xDE0B6B3A7640000"]);
    const nonce = await nextNonce();
    const bundle = await Promise.all(
      Array.from({ length: 3 }, (_, i) => signTransfer(nonce + i, TIP, parseEther("0.001"))),
    );
    const stray = await signTransferFrom(other, 0, TIP, 1n);
    // In front of the node, a proxy that lets the stray reach the node just before the
    // bundle's first transaction, as another process's transfer would, past the builder.
    const proxy = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString("utf8");
      const message = JSON.parse(body) as { method?: string; params?: unknown[] };
      if (message.method === "eth_sendRawTransaction" && message.params?.[0] === bundle[0])
        await rpc(anvil.rpcUrl, "eth_sendRawTransaction", [stray]);
      const upstream = await fetch(anvil.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      response.writeHead(upstream.status, { "content-type": "application/json" });
      response.end(await upstream.text());
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    // This builder alone mines while it runs: the other one's rhythm pauses.
    await rpc(builder.url, "dev_setBlockTime", [0]);
    const through = await startDevBuilder({
      rpcUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      tipAddress: TIP,
      minTip: parseEther("0.0005"),
      maxTxs: 50,
      blockTime: 0,
    });
    try {
      const answer = await rpc(through.url, "eth_sendBundle", [{ txs: bundle }]);
      expect(answer.error?.message).toBeUndefined();
      const first = await client.getTransactionReceipt({ hash: keccak256(bundle[0] as Hex) });
      const block = await client.getBlock({ blockNumber: first.blockNumber });
      // Every transaction of the bundle, in its order; the stray beside them, mined once.
      expect(block.transactions.filter((hash) => hashes(bundle).includes(hash))).toEqual(
        hashes(bundle),
      );
      expect(block.transactions).toContain(keccak256(stray));
    } finally {
      await through.close();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await rpc(builder.url, "dev_setBlockTime", [0.2]);
    }
  });

  it("lets ordinary transactions through while a bundle waits for its minTimestamp", async () => {
    const other = privateKeyToAccount(generatePrivateKey());
    await rpc(anvil.rpcUrl, "anvil_setBalance", [other.address, "0xDE0B6B3A7640000"]);
    const nonce = await nextNonce();
    const bundle = [await signTransfer(nonce, TIP, parseEther("0.001"))];
    const minTimestamp = Math.floor(Date.now() / 1000) + 4;
    const waiting = rpc(builder.url, "eth_sendBundle", [{ txs: bundle, minTimestamp }]);
    const transfer = await signTransferFrom(other, 0, TIP, 1n);
    const sent = await rpc(builder.url, "eth_sendRawTransaction", [transfer]);
    expect(sent.error).toBeUndefined();
    const mined = await client.waitForTransactionReceipt({ hash: keccak256(transfer) });
    expect((await waiting).error).toBeUndefined();
    const bundled = await client.getTransactionReceipt({ hash: keccak256(bundle[0] as Hex) });
    expect(mined.blockNumber).toBeLessThan(bundled.blockNumber);
  });
});

const hashes = (txs: Hex[]) => txs.map((tx) => keccak256(tx));
