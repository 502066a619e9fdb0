import type { SellTransaction } from "@bundler/shared";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { type LaunchedBundle, launchBundle, tokenBalance } from "../../test/bundles.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { apiCaller } from "../../test/drafts-api.ts";

// The test chain's builder takes bundles of at most 50 transactions, a tip included: a first
// sell is an approval and a sale, so 24 wallets fit one bundle.
const masterKey = Buffer.alloc(32, 24);
const WALLETS = 50;
let testChain: TestChain;
let app: TestApp;
let key: string;
let bundle: LaunchedBundle;

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  app = await createTestApp({ chain: testChain.chain, masterKey });
  key = await app.auth.mintKey("user");
  bundle = await launchBundle(app, testChain, key, { wallets: WALLETS, buy: "0.02" });
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});

const sellAll = async (wallets: Address[]) => {
  const call = apiCaller(
    () => app,
    () => key,
  );
  // Paused: no block of the chain's own rhythm comes between two bundles.
  await testChain.setBlockTime(0);
  const { status, body } = await call("POST", "/api/bundle/wallets/sell", {
    address: bundle.token,
    wallets,
    amount: "100",
    isPercentage: true,
  });
  await testChain.setBlockTime();
  expect(status).toBe(200);
  const txs = body.transactions as SellTransaction[];
  expect(txs.filter((t) => t.kind === "sell" && t.status === "pending")).toHaveLength(
    wallets.length,
  );
  const receipts = await Promise.all(
    txs.map((t) =>
      testChain.chain.client.waitForTransactionReceipt({
        hash: t.hash as Hex,
        pollingInterval: 200,
        timeout: 20_000,
      }),
    ),
  );
  expect(receipts.every((r) => r.status === "success")).toBe(true);
  for (const w of wallets) expect(await tokenBalance(testChain, bundle.token, w)).toBe(0n);
  return { bundles: body.bundles as number, blocks: receipts.map((r) => r.blockNumber) };
};

describe("a sell of many wallets", () => {
  it("lands 20 wallets' approvals and sales in one block, as one bundle", async () => {
    const wallets = bundle.wallets.slice(0, 20).map((w) => w.address);
    const { bundles, blocks } = await sellAll(wallets);
    expect(bundles).toBe(1);
    expect(new Set(blocks).size).toBe(1);
  });

  it("splits 30 more over the builder's cap into two bundles for consecutive blocks", async () => {
    const wallets = bundle.wallets.slice(20, WALLETS).map((w) => w.address);
    const { bundles, blocks } = await sellAll(wallets);
    expect(bundles).toBe(2);
    const numbers = [...new Set(blocks)].sort((a, b) => Number(a - b));
    expect(numbers).toHaveLength(2);
    expect((numbers[1] as bigint) - (numbers[0] as bigint)).toBe(1n);
  });
});
