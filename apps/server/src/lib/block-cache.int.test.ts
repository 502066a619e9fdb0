import { profiles, type SeenRequest, startCountingProxy } from "@bundler/chain";
import { type Address, createWalletClient, http, parseEther, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app.ts";
import { type LaunchedBundle, launchBundle, setBalances } from "../test/bundles.ts";
import { startTestChain, type TestChain } from "../test/chain.ts";
import { localChainContext } from "./chain-context.ts";

let testChain: TestChain;
let proxy: Awaited<ReturnType<typeof startCountingProxy>>;
let app: TestApp;
let key: string;
let bundle: LaunchedBundle;
const masterKey = Buffer.alloc(32, 17);
const payer = privateKeyToAccount(generatePrivateKey());
const wallets = Array.from({ length: 30 }, () => privateKeyToAccount(generatePrivateKey()).address);

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  // The server's every RPC request goes through a proxy that counts them.
  proxy = await startCountingProxy(testChain.local.builderUrl);
  const chain = localChainContext(
    profiles.local,
    { ...testChain.local, builderUrl: proxy.url },
    50,
  );
  // Every caller of a test runs at once (the read queue would let 8 in at a time, and each
  // group would make its own read: what is measured here is sharing among reads that run).
  app = await createTestApp({ chain, masterKey, concurrentReads: wallets.length });
  key = await app.auth.mintKey("user");
  bundle = await launchBundle(app, testChain, key, { wallets: 5 });
  await setBalances(testChain, [
    [payer.address, parseEther("10")],
    ...wallets.map((w, i): [Address, bigint] => [w, parseEther(`0.${i + 1}`)]),
  ]);
});
afterAll(async () => {
  await testChain?.setBlockTime();
  await app?.close();
  await proxy?.close();
  await testChain?.stop();
});
beforeEach(async () => {
  // No block comes by itself during a test: each one is mined by the test.
  await testChain.setBlockTime(0);
  await testChain.mine();
  await headTtlPassed();
  proxy.reset();
});

/** The server asks the head again at most 250 ms after it last read it. */
const headTtlPassed = () => new Promise((resolve) => setTimeout(resolve, 300));

const call = async (method: "GET" | "POST", url: string, payload?: object) => {
  const response = await app.server.inject({
    method,
    url,
    headers: { "x-auth-key": key },
    ...(payload ? { payload } : {}),
  });
  return { status: response.statusCode, body: response.json() };
};

/** How many HTTP requests carried `method` (a JSON-RPC batch counts once). */
const requestsWith = (method: string, seen: SeenRequest[] = proxy.seen) =>
  seen.filter((request) => request.methods.includes(method)).length;

describe("chain reads shared per block", () => {
  it("answers twenty concurrent balance polls of the same wallets in one block with one RPC read", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call("POST", "/api/wallets/balances", { addresses: wallets }),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.balances[0]).toEqual({ address: wallets[0], balance: "0.1" });
      expect(answer.body.balances[29]).toEqual({ address: wallets[29], balance: "0.3" });
    }
    expect(requestsWith("eth_call")).toBe(1);
    expect(requestsWith("eth_getBlockByNumber")).toBe(1);
  });

  it("answers a poll after a new block from the block before at once, saying which, and the new balance next", async () => {
    const poll = async () =>
      (await call("POST", "/api/wallets/balances", { addresses: wallets })).body;
    // Balances read at this block (a poll may first be answered from the one before).
    const before = Number(
      await testChain
        .rpc("eth_blockNumber", [])
        .then((r) => r.json())
        .then((b) => b.result),
    );
    await expect.poll(async () => (await poll()).asOfBlock).toBe(String(before));
    await setBalances(testChain, [[wallets[0] as Address, parseEther("2")]]);
    const head = await testChain.mine();
    await headTtlPassed();
    const answer = await poll();
    expect(answer.balances[0]).toEqual({ address: wallets[0], balance: "0.1" });
    expect(answer.asOfBlock).toBe(String(head - 1));
    await expect.poll(poll).toMatchObject({
      balances: expect.arrayContaining([{ address: wallets[0], balance: "2" }]),
      asOfBlock: String(head),
    });
  });

  it("batches different callers' addresses into one multicall per block", async () => {
    const answers = await Promise.all(
      wallets.map((wallet) => call("POST", "/api/wallets/balances", { addresses: [wallet] })),
    );
    expect(answers.map((a) => a.body.balances[0].address)).toEqual(wallets);
    // Answered from the block before, the new block's read may still be on its way: one.
    await expect.poll(() => requestsWith("eth_call")).toBe(1);
    await headTtlPassed();
    expect(requestsWith("eth_call")).toBe(1);
  });

  it("answers concurrent polls of one bundle's balances in one block with one RPC read", async () => {
    const url = `/api/bundle/wallets/balances?address=${bundle.token}`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => call("GET", url)));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.balances).toHaveLength(5);
      expect(answer.body).toEqual(answers[0]?.body);
    }
    expect(requestsWith("eth_call")).toBe(1);
  });

  it("answers a final transaction status from memory, without the database or the chain", async () => {
    const hash = await createWalletClient({
      account: payer,
      transport: http(testChain.local.rpcUrl),
    }).sendTransaction({ chain: null, to: wallets[1], value: 1n });
    await testChain.mine();
    const pending = await call("POST", "/api/bundle/tx/status", { txHashes: [hash] });
    expect(pending.body.statuses[0]).toMatchObject({ status: "success" });
    // Two blocks on top: final.
    await testChain.rpc("anvil_mine", [toHex(2)]);
    await headTtlPassed();
    await call("POST", "/api/bundle/tx/status", { txHashes: [hash] });
    proxy.reset();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call("POST", "/api/bundle/tx/status", { txHashes: [hash] })),
    );
    for (const answer of answers)
      expect(answer.body.statuses[0]).toEqual({
        hash,
        status: "success",
        blockNumber: pending.body.statuses[0].blockNumber,
        reason: null,
        sale: null,
      });
    expect(proxy.seen).toHaveLength(0);
  });

  it("reads a status again while its block has fewer than two blocks on top", async () => {
    const hash = await createWalletClient({
      account: payer,
      transport: http(testChain.local.rpcUrl),
    }).sendTransaction({ chain: null, to: wallets[2], value: 1n });
    await testChain.mine();
    await call("POST", "/api/bundle/tx/status", { txHashes: [hash] });
    const receiptReads = async () => {
      await testChain.mine();
      await headTtlPassed();
      proxy.reset();
      await call("POST", "/api/bundle/tx/status", { txHashes: [hash] });
      await call("POST", "/api/bundle/tx/status", { txHashes: [hash] });
      return requestsWith("eth_getTransactionReceipt");
    };
    expect(await receiptReads()).toBe(1); // one block on top: read once for this block
    expect(await receiptReads()).toBe(1); // two on top: read, then kept for good
    expect(await receiptReads()).toBe(0);
  });
});
