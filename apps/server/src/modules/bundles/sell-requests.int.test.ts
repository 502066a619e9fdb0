import type { SellTransaction } from "@bundler/shared";
import type { Address } from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { armFailpoint, disarmFailpoints } from "../../lib/failpoints.ts";
import type { TestApp } from "../../test/app.ts";
import { launchBundle, tokenBalance } from "../../test/bundles.ts";
import type { TestChain } from "../../test/chain.ts";
import { apiCaller } from "../../test/drafts-api.ts";
import { startTestbed, stopTestbed } from "../../test/testbed.ts";

// One request id sells each wallet at most once, whatever became of its earlier attempts and
// under whichever key the transaction manager last recorded them.
const masterKey = Buffer.alloc(32, 27);
let testChain: TestChain;
let app: TestApp;
let key: string;

beforeAll(async () => {
  ({ testChain, app, key } = await startTestbed(masterKey));
});
afterAll(() => stopTestbed({ app, testChain }));
afterEach(() => disarmFailpoints());

const call = apiCaller(
  () => app,
  () => key,
);
const sellHalf = (token: Address, wallet: Address, requestId: string) =>
  call("POST", "/api/bundle/wallets/sell", {
    address: token,
    wallets: [wallet],
    amount: "50",
    isPercentage: true,
    requestId,
  });
const saleOf = (body: Record<string, unknown>) =>
  (body.transactions as SellTransaction[]).find((t) => t.kind === "sell");

/**
 * A quiet chain's gas price stops moving (its base fee decays to nothing and the price sits at
 * the profile's floor): then a sale signed again with nothing moved on the curve is the very
 * same transaction. Here the base fee is put there at once.
 */
const quietGasPrice = async () => {
  await testChain.rpc("anvil_setNextBlockBaseFeePerGas", ["0x0"]);
  await testChain.mine();
  await testChain.mine();
};

/** The sale a request recorded first. */
const recordedSale = async (requestId: string) =>
  ((await app.transactions?.byKeyPrefix("bundle-sell:")) ?? []).find((row) =>
    row.key.endsWith(`:r:${requestId}:sell`),
  );

/** Reconciles until the chain is past `hash`'s bundle window and its row is dropped. */
const dropped = async (hash: string) =>
  expect
    .poll(
      async () => {
        await app.transactions?.reconcile();
        const rows = await app.transactions?.byHashes([hash]);
        return rows?.[0]?.status;
      },
      { timeout: 20_000 },
    )
    .toBe("dropped");

describe("a sell request asked again", () => {
  it("answers its landed sale a third time after its dropped attempt was signed again byte for byte", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    const held = await tokenBalance(testChain, bundle.token, wallet);
    await quietGasPrice();
    // Recorded, never sent: no builder ever sees the bundle; its window passes.
    armFailpoint("tx.recorded", "throw", 1);
    expect((await sellHalf(bundle.token, wallet, "twice-one")).status).toBe(500);
    const recorded = await recordedSale("twice-one");
    await dropped(recorded?.txHash as string);

    // Nothing moved on the curve: the new attempt signs the very same sale, which lands.
    const second = await sellHalf(bundle.token, wallet, "twice-one");
    expect(saleOf(second.body)?.hash).toBe(recorded?.txHash);
    await expect.poll(() => tokenBalance(testChain, bundle.token, wallet)).toBe(held - held / 2n);

    const third = await sellHalf(bundle.token, wallet, "twice-one");
    expect(third.status).toBe(200);
    expect(saleOf(third.body)?.hash).toBe(recorded?.txHash);
    for (let i = 0; i < 3; i++) await testChain.mine();
    expect(await tokenBalance(testChain, bundle.token, wallet)).toBe(held - held / 2n);
  });

  it("answers the sale another request landed with the very transaction it had recorded", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    const held = await tokenBalance(testChain, bundle.token, wallet);
    await quietGasPrice();
    armFailpoint("tx.recorded", "throw", 1);
    expect((await sellHalf(bundle.token, wallet, "first-of-two")).status).toBe(500);
    const recorded = await recordedSale("first-of-two");
    await dropped(recorded?.txHash as string);

    const other = await sellHalf(bundle.token, wallet, "second-of-two");
    expect(saleOf(other.body)?.hash).toBe(recorded?.txHash);
    await expect.poll(() => tokenBalance(testChain, bundle.token, wallet)).toBe(held - held / 2n);

    const first = await sellHalf(bundle.token, wallet, "first-of-two");
    expect(saleOf(first.body)?.hash).toBe(recorded?.txHash);
    for (let i = 0; i < 3; i++) await testChain.mine();
    expect(await tokenBalance(testChain, bundle.token, wallet)).toBe(held - held / 2n);
  });

  it("records a sale that lands in its window's last block once, and its bundle sent again is refused and sells nothing more", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    const held = await tokenBalance(testChain, bundle.token, wallet);
    await testChain.setBlockTime(0);
    try {
      // Recorded, never sent: a builder holds the bundle until the last block it may use.
      armFailpoint("tx.recorded", "throw", 1);
      expect((await sellHalf(bundle.token, wallet, "last-block")).status).toBe(500);
      const recorded = await recordedSale("last-block");
      const prefix = `${recorded?.key.slice(0, -"sell".length)}`;
      const rows = (await app.transactions?.byKeyPrefix(prefix)) ?? [];
      const lastBlock = recorded?.validUntilBlock as bigint;
      while ((await testChain.chain.client.getBlockNumber()) < lastBlock - 1n)
        await testChain.mine();
      for (const row of rows) await testChain.rpc("eth_sendRawTransaction", [row.rawTx]);
      expect(BigInt(await testChain.mine())).toBe(lastBlock);

      await expect
        .poll(async () => {
          // Mined rows are confirmed some blocks deep: the chain is paused, so mine them.
          await testChain.mine();
          await app.transactions?.reconcile();
          const [row] = (await app.transactions?.byHashes([recorded?.txHash as string])) ?? [];
          return [row?.status, row?.blockNumber];
        })
        .toEqual(["mined", lastBlock]);
      // The bundle sent again (a builder's retry, a request asked again) is refused.
      const builder = testChain.chain.builders[0];
      const resend = await fetch(builder?.url as string, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "eth_sendBundle",
          params: [{ txs: rows.map((row) => row.rawTx), maxBlockNumber: Number(lastBlock) + 5 }],
        }),
      });
      expect(((await resend.json()) as { error?: unknown }).error).toBeDefined();

      const again = await sellHalf(bundle.token, wallet, "last-block");
      expect(again.status).toBe(200);
      expect(saleOf(again.body)?.hash).toBe(recorded?.txHash);
      expect((await app.transactions?.byKeyPrefix(prefix))?.length).toBe(rows.length);
      for (let i = 0; i < 3; i++) await testChain.mine();
      expect(await tokenBalance(testChain, bundle.token, wallet)).toBe(held - held / 2n);
    } finally {
      await testChain.setBlockTime();
    }
  });

  it("answers an attempt that landed after its row was dropped, recording it mined, and sells nothing more", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    const held = await tokenBalance(testChain, bundle.token, wallet);
    armFailpoint("tx.recorded", "throw", 1);
    expect((await sellHalf(bundle.token, wallet, "leaked-sale")).status).toBe(500);
    const recorded = await recordedSale("leaked-sale");
    await dropped(recorded?.txHash as string);
    // Whoever held the signed bytes (a builder, say) sends them on after the window.
    const rows = await app.transactions?.byKeyPrefix(`${recorded?.key.slice(0, -"sell".length)}`);
    for (const row of rows ?? []) await testChain.rpc("eth_sendRawTransaction", [row.rawTx]);
    await expect.poll(() => tokenBalance(testChain, bundle.token, wallet)).toBe(held - held / 2n);

    const again = await sellHalf(bundle.token, wallet, "leaked-sale");
    expect(again.status).toBe(200);
    expect(saleOf(again.body)?.hash).toBe(recorded?.txHash);
    expect((await app.transactions?.byHashes([recorded?.txHash as string]))?.[0]?.status).toBe(
      "mined",
    );
    for (let i = 0; i < 3; i++) await testChain.mine();
    expect(await tokenBalance(testChain, bundle.token, wallet)).toBe(held - held / 2n);
  });
});
