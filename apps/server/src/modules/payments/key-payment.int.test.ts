import { eq, sql } from "drizzle-orm";
import { type Address, formatEther, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainTxs, payments, referralRewards } from "../../db/schema.ts";
import { usdToWei } from "../../lib/pricing.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { payerOn } from "../../test/drafts-api.ts";
import { eachBlockUntil, publicCaller, referralInfoOf, referrerWith } from "../../test/referral.ts";
import { rowCounts } from "../../test/row-counts.ts";

let testChain: TestChain;
let app: TestApp;
const masterKey = Buffer.alloc(32, 21);
const treasury = privateKeyToAccount(generatePrivateKey()).address;
/** The local profile's BNB price (BNB_USD_PRICE's default). */
const RATE = 600;

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  app = await createTestApp({
    chain: testChain.chain,
    masterKey,
    treasuryAddress: treasury,
    keyPaymentLimitPerHour: 1000,
  });
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});

const call = publicCaller(() => app);
const payer = () => payerOn(testChain);
const balance = (address: Address) => testChain.chain.client.getBalance({ address });
let devices = 0;
const newDevice = () => `device-key-payment-${++devices}-${Date.now()}`;

const start = async (deviceId: string, referralCode?: string) => {
  const started = await call("POST", "/api/auth/payment", { deviceId, referralCode });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return started.body as {
    paymentId: string;
    paymentAddress: Address;
    paymentAmount: string;
    [field: string]: unknown;
  };
};
const statusOf = (paymentId: string, deviceId: string) =>
  call("GET", `/api/auth/payment/status?paymentId=${paymentId}&deviceId=${deviceId}`);
const paymentRow = async (id: string) =>
  (await app.database.db.select().from(payments).where(eq(payments.id, id)))[0];

/** Fresh watchers (a restart each block) until the payment's money is settled. */
const settle = (paymentId: string) =>
  eachBlockUntil(
    testChain,
    async () => app.fresh().paymentWatcher?.tick(),
    async () => {
      const row = await paymentRow(paymentId);
      const open = await app.database.db.select().from(chainTxs);
      return (
        row?.settledAt != null && open.every((t) => t.status !== "signed" && t.status !== "sent")
      );
    },
  );

describe("buying an access key", () => {
  it("with a referral code: paid on chain, one key made and answered again to the device that paid, the referrer credited the reward", async () => {
    const referrer = await referrerWith(app, "Moon_Cat");
    const deviceId = newDevice();
    const started = await start(deviceId, "moon_cat");
    expect(started).toMatchObject({
      priceUsd: 4,
      discountUsd: 0.6,
      amountUsd: 3.4,
      bnbUsdRate: RATE,
      rateSource: "fixed",
      referralCode: "Moon_Cat",
      paymentAmount: formatEther(usdToWei("3.4", RATE)),
    });
    expect((await statusOf(started.paymentId, deviceId)).body).toMatchObject({
      status: "open",
      isPaid: false,
      keyIssued: false,
    });

    await (await payer()).pay(started.paymentAddress, parseEther(started.paymentAmount));
    await settle(started.paymentId);

    const first = await statusOf(started.paymentId, deviceId);
    expect(first.body).toMatchObject({
      status: "paid",
      isPaid: true,
      keyIssued: true,
      received: started.paymentAmount,
    });
    const key = first.body.key as string;
    expect(key).toMatch(/^lbk_/);
    // The first answer lost (a closed tab, a dropped connection): the device asks again.
    const second = await statusOf(started.paymentId, deviceId);
    expect(second.body).toMatchObject({ isPaid: true, keyIssued: true, key });
    expect((await statusOf(started.paymentId, newDevice())).status).toBe(404);
    const { rows } = await app.database.db.execute(
      sql`select count(*)::int as n from users where device_id = ${deviceId} and key_source = 'purchased'`,
    );
    expect(rows[0]).toEqual({ n: 1 });

    const validated = await call("POST", "/api/auth/key/validate", { key });
    expect(validated.body).toEqual({ success: true, role: "user" });
    expect((await referralInfoOf(app, referrer)) as object).toMatchObject({
      uses: 1,
      earned: formatEther(usdToWei("0.4", RATE)),
      claimable: formatEther(usdToWei("0.4", RATE)),
    });
    // The price (less nothing but the sweep's gas) reached the treasury.
    expect(await balance(treasury)).toBeGreaterThan(
      parseEther(started.paymentAmount) - parseEther("0.0001"),
    );
  });

  it("without a code costs the whole price, and rewards nobody", async () => {
    const deviceId = newDevice();
    const started = await start(deviceId);
    expect(started).toMatchObject({ discountUsd: 0, amountUsd: 4, referralCode: null });
    expect(started.paymentAmount).toBe(formatEther(usdToWei("4", RATE)));
    await (await payer()).pay(started.paymentAddress, parseEther(started.paymentAmount));
    await settle(started.paymentId);
    expect((await statusOf(started.paymentId, deviceId)).body.key).toMatch(/^lbk_/);
    const rewards = await app.database.db
      .select()
      .from(referralRewards)
      .where(eq(referralRewards.paymentId, started.paymentId));
    expect(rewards).toEqual([]);
  });

  it("refuses an unknown referral code with 400 and stores nothing", async () => {
    const before = await rowCounts(app.database.db);
    const refused = await call("POST", "/api/auth/payment", {
      deviceId: newDevice(),
      referralCode: "nobody-has-this",
    });
    expect(refused).toEqual({
      status: 400,
      body: { success: false, error: "Invalid referral code" },
    });
    expect(await rowCounts(app.database.db)).toEqual(before);
  });

  it("shows a payment only to the device that started it", async () => {
    const started = await start(newDevice());
    expect(await statusOf(started.paymentId, "another-device-1")).toEqual({
      status: 404,
      body: { success: false, error: "Payment not found" },
    });
    const cancel = await call("POST", "/api/auth/payment/cancel", {
      paymentId: started.paymentId,
      deviceId: "another-device-1",
    });
    expect(cancel.status).toBe(404);
    expect((await paymentRow(started.paymentId))?.status).toBe("open");
  });

  it("answers 404 for a malformed payment id and 400 without a device", async () => {
    expect((await statusOf("nope", "device-123456")).status).toBe(404);
    const missing = await call("GET", `/api/auth/payment/status?paymentId=${crypto.randomUUID()}`);
    expect(missing.status).toBe(400);
  });

  it("lets one address start 10 key payments an hour, then answers 429", async () => {
    const limited = await createTestApp({ keyPaymentLimitPerHour: 10 });
    try {
      const ask = () =>
        publicCaller(() => limited)(
          "POST",
          "/api/auth/payment",
          { deviceId: "device-limited", referralCode: "no-such-code" },
          "10.9.9.9",
        );
      for (let i = 0; i < 10; i++) expect((await ask()).status).toBe(400);
      expect(await ask()).toEqual({
        status: 429,
        body: { success: false, error: "Rate Limit Reached - Too many requests at once" },
      });
    } finally {
      await limited.close();
    }
  });

  it("keeps at most 3 key payments open per device", async () => {
    const deviceId = newDevice();
    for (let i = 0; i < 3; i++) await start(deviceId);
    const refused = await call("POST", "/api/auth/payment", { deviceId });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/already has 3 key payments open/);
  });
});

describe("money sent to a key payment that it does not owe", () => {
  const refundsOf = async (paymentId: string) =>
    (await app.database.db.select().from(chainTxs).where(eq(chainTxs.subject, paymentId))).filter(
      (t) => t.purpose === "payment-refund",
    );

  it("refunds the excess over the price minus gas, once", async () => {
    const deviceId = newDevice();
    const started = await start(deviceId);
    const { account, pay } = await payer();
    const extra = parseEther("0.002");
    await pay(started.paymentAddress, parseEther(started.paymentAmount) + extra);
    const before = await balance(account.address);
    // Two watchers at once, as two processes would be.
    await Promise.all([app.fresh().paymentWatcher?.tick(), app.fresh().paymentWatcher?.tick()]);
    await settle(started.paymentId);
    const refunds = await refundsOf(started.paymentId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.status).toBe("mined");
    const returned = (await balance(account.address)) - before;
    expect(returned).toBe(BigInt(refunds[0]?.value ?? 0));
    expect(returned).toBeGreaterThan(extra - parseEther("0.0001"));
    expect(returned).toBeLessThan(extra);
    expect((await statusOf(started.paymentId, deviceId)).body.key).toMatch(/^lbk_/);
  });

  it("refunds a payment sent after a cancel, minus gas, and hands out no key", async () => {
    const deviceId = newDevice();
    const started = await start(deviceId);
    const cancelled = await call("POST", "/api/auth/payment/cancel", {
      paymentId: started.paymentId,
      deviceId,
    });
    expect(cancelled.body).toMatchObject({ success: true });
    const { account, pay } = await payer();
    const value = parseEther(started.paymentAmount);
    await pay(started.paymentAddress, value);
    const before = await balance(account.address);
    await settle(started.paymentId);
    const refunds = await refundsOf(started.paymentId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.reason).toBe("Payment arrived for a cancelled payment");
    expect((await balance(account.address)) - before).toBe(BigInt(refunds[0]?.value ?? 0));
    expect(BigInt(refunds[0]?.value ?? 0)).toBeGreaterThan(value - parseEther("0.0001"));
    const status = await statusOf(started.paymentId, deviceId);
    expect(status.body).toMatchObject({ status: "cancelled", isPaid: false, keyIssued: false });
    expect(status.body.key).toBeUndefined();
  });

  it("refunds a payment that arrives after the window, minus gas", async () => {
    const deviceId = newDevice();
    const started = await start(deviceId);
    await app.database.db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(payments.id, started.paymentId));
    const { account, pay } = await payer();
    await pay(started.paymentAddress, parseEther(started.paymentAmount));
    const before = await balance(account.address);
    await settle(started.paymentId);
    const refunds = await refundsOf(started.paymentId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]?.reason).toBe("Payment arrived after the payment window expired");
    expect((await balance(account.address)) - before).toBe(BigInt(refunds[0]?.value ?? 0));
    expect((await statusOf(started.paymentId, deviceId)).body).toMatchObject({
      status: "expired",
      keyIssued: false,
    });
  });
});
