import { eq, sql } from "drizzle-orm";
import { type Address, type Hex, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainTxs, payments } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { apiCaller, draftInput, payerOn } from "../../test/drafts-api.ts";

/**
 * Issue 27: money is decided on "mined" (a refund done, a fee swept), and "mined" waits for two
 * blocks on top of the receipt: a block the chain takes back never settled a payment.
 */
let testChain: TestChain;
let app: TestApp;
let key: string;
const masterKey = Buffer.alloc(32, 27);
const treasury = privateKeyToAccount(generatePrivateKey()).address;
const FEE = parseEther("0.01");
const GAS_AT_MOST = parseEther("0.0005");

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  app = await createTestApp({
    chain: testChain.chain,
    masterKey,
    launchFeeBnb: "0.01",
    treasuryAddress: treasury,
    bodyLimitBytes: 2 * 1024 * 1024,
    // A refund the chain lost is sent again within a second, not ten.
    transactions: { rebroadcastAfterMs: 500 },
  });
  key = await app.auth.mintKey("user");
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});

const call = apiCaller(
  () => app,
  () => key,
);
const balance = (address: Address) => testChain.chain.client.getBalance({ address });

/** A watcher as a freshly started process builds it. */
const watcher = () => {
  const { paymentWatcher } = app.fresh();
  if (!paymentWatcher) throw new Error("no payment watcher");
  return paymentWatcher;
};

const paymentAt = async (address: Address) =>
  (await app.database.db.select().from(payments).where(eq(payments.address, address)))[0];

const nextBlock = async () => {
  const now = await testChain.chain.client.getBlockNumber();
  while ((await testChain.chain.client.getBlockNumber()) === now)
    await new Promise((resolve) => setTimeout(resolve, 100));
};

/** Ticks (a fresh watcher each block) until `done` holds. */
const tickUntil = async (done: () => Promise<boolean>, blocks = 40) => {
  for (let i = 0; i < blocks; i++) {
    await watcher().tick();
    if (await done()) return;
    await nextBlock();
  }
  throw new Error("not settled in time");
};

const snapshot = async () =>
  ((await (await testChain.rpc("evm_snapshot", [])).json()) as { result: string }).result;

describe("a refund whose block the chain takes back", () => {
  it("keeps the payment unsettled while its refund is less than two blocks deep, and refunds once when that block is taken back", async () => {
    const draftId = (await call("POST", "/api/draft/create", draftInput())).body.draftId as string;
    const address = (await call("POST", `/api/draft/${draftId}/payment`)).body
      .paymentAddress as Address;
    expect((await call("POST", `/api/draft/${draftId}/payment/cancel`)).status).toBe(200);
    const payer = await payerOn(testChain);
    await payer.pay(address, FEE);
    const before = await balance(payer.account.address);

    await testChain.setBlockTime(0);
    try {
      // The deposit is seen and its refund sent; nothing is mined meanwhile.
      const refunds = () =>
        app.database.db
          .select()
          .from(chainTxs)
          .where(sql`lower(${chainTxs.from}) = ${address.toLowerCase()}`);
      for (let i = 0; i < 3 && (await refunds()).length === 0; i++) await watcher().tick();
      const [refund] = await refunds();
      expect(refund?.purpose).toBe("payment-refund");
      const taken = await snapshot();
      // The refund's block, and one on top of it.
      await testChain.mine();
      await testChain.mine();
      expect(await balance(payer.account.address)).toBeGreaterThan(before);
      await watcher().tick();
      expect((await paymentAt(address))?.settledAt).toBeNull();
      await testChain.rpc("evm_revert", [taken]);
      await testChain.rpc("anvil_dropTransaction", [refund?.txHash as Hex]);
      expect(await balance(payer.account.address)).toBe(before);
    } finally {
      await testChain.setBlockTime();
    }

    await tickUntil(async () => (await paymentAt(address))?.settledAt != null);
    for (let i = 0; i < 3; i++) {
      await nextBlock();
      await watcher().tick();
    }
    const refunded = (await balance(payer.account.address)) - before;
    expect(refunded > FEE - GAS_AT_MOST && refunded < FEE).toBe(true);
    expect(await testChain.chain.client.getTransactionCount({ address })).toBe(1);
  }, 120_000);
});
