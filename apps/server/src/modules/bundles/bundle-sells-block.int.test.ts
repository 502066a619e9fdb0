import type { SellTransaction } from "@bundler/shared";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { type LaunchedBundle, launchBundle, tokenBalance } from "../../test/bundles.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { apiCaller } from "../../test/drafts-api.ts";

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

describe("a sell of 50 wallets", () => {
  it("lands every wallet's approval and sale in one block", async () => {
    const call = apiCaller(
      () => app,
      () => key,
    );
    const wallets = bundle.wallets.map((w) => w.address);
    const { status, body } = await call("POST", "/api/bundle/wallets/sell", {
      address: bundle.token,
      wallets,
      amount: "100",
      isPercentage: true,
    });
    expect(status).toBe(200);
    const txs = body.transactions as SellTransaction[];
    expect(txs.filter((t) => t.kind === "sell" && t.status === "pending")).toHaveLength(WALLETS);
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
    expect(new Set(receipts.map((r) => r.blockNumber)).size).toBe(1);
    for (const w of wallets)
      expect(await tokenBalance(testChain, bundle.token, w as Address)).toBe(0n);
  });
});
