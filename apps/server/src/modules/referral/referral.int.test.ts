import { eq } from "drizzle-orm";
import {
  type Address,
  createWalletClient,
  formatEther,
  type Hex,
  http,
  type LocalAccount,
  parseEther,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payments, referralCodes, referralRewards } from "../../db/schema.ts";
import { usdToWei } from "../../lib/pricing.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { apiCaller, draftInput, payerOn } from "../../test/drafts-api.ts";
import { eachBlockUntil, publicCaller, referralInfoOf, referrerWith } from "../../test/referral.ts";
import { rowCounts } from "../../test/row-counts.ts";

let testChain: TestChain;
let app: TestApp;
/** A second server process on the same database. */
let second: TestApp;
const masterKey = Buffer.alloc(32, 22);
const treasury = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  const options = {
    chain: testChain.chain,
    masterKey,
    treasuryAddress: treasury,
    launchFeeBnb: "0.01",
    bodyLimitBytes: 2 * 1024 * 1024,
  };
  app = await createTestApp(options);
  second = await createTestApp({ ...options, database: app.database });
});
afterAll(async () => {
  await second?.close();
  await app?.close();
  await testChain?.stop();
});

const anyone = publicCaller(() => app);
const call = apiCaller(
  () => app,
  () => "",
);
let devices = 0;
const newDevice = () => `device-referral-${++devices}-${Date.now()}`;

const freeKey = async (referralCode?: string) => {
  const response = await anyone("POST", "/api/auth/key/generate-free", {
    deviceId: newDevice(),
    referralCode,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.key as string;
};

/** Both processes' watchers at once, each block, until the payment is paid. */
const creditRace = (paymentId: string) =>
  eachBlockUntil(
    testChain,
    () =>
      Promise.all([
        app.paymentWatcher?.tick(),
        second.paymentWatcher?.tick(),
        app.fresh().paymentWatcher?.tick(),
      ]),
    async () => {
      const [row] = await app.database.db.select().from(payments).where(eq(payments.id, paymentId));
      return row?.status === "paid";
    },
  );

const rewardsOf = (paymentId: string) =>
  app.database.db.select().from(referralRewards).where(eq(referralRewards.paymentId, paymentId));

describe("referral codes", () => {
  it("creates one code per user, as typed, and answers it in the info", async () => {
    const key = await app.auth.mintKey("user");
    const created = await call("POST", "/api/auth/referral/create", { code: " Big-Fish_1 " }, key);
    expect(created).toEqual({
      status: 200,
      body: { success: true, code: "Big-Fish_1", message: "Referral code created successfully!" },
    });
    expect(await referralInfoOf(app, key)).toEqual({
      success: true,
      code: "Big-Fish_1",
      uses: 0,
      earned: "0",
      claimable: "0",
      pending: "0",
      claimed: "0",
      hasPendingClaim: false,
    });
    const again = await call("POST", "/api/auth/referral/create", { code: "other-one" }, key);
    expect(again).toEqual({
      status: 409,
      body: { success: false, error: "You already have a referral code" },
    });
  });

  it("refuses a code another user has, in any letter case: this code is taken", async () => {
    await referrerWith(app, "TakenCode");
    const key = await app.auth.mintKey("user");
    const taken = await call("POST", "/api/auth/referral/create", { code: "takencode" }, key);
    expect(taken).toEqual({ status: 400, body: { success: false, error: "this code is taken" } });
    expect((await referralInfoOf(app, key)).code).toBeNull();
  });

  it("answers SPEC §5's words for a blank or malformed code and stores nothing", async () => {
    const key = await app.auth.mintKey("user");
    const before = await app.database.db.select().from(referralCodes);
    for (const [code, error] of [
      ["   ", "Please enter a custom code"],
      ["no spaces", "A code is 3 to 20 letters, digits, _ or -"],
      ["ab", "A code is 3 to 20 letters, digits, _ or -"],
    ])
      expect(await call("POST", "/api/auth/referral/create", { code }, key)).toEqual({
        status: 400,
        body: { success: false, error },
      });
    expect(await app.database.db.select().from(referralCodes)).toHaveLength(before.length);
  });

  it("counts a free key that came with the code as a use, without a reward", async () => {
    const referrer = await referrerWith(app, "free-friends");
    await freeKey("FREE-FRIENDS");
    expect(await referralInfoOf(app, referrer)).toMatchObject({ uses: 1, earned: "0" });
  });

  it("refuses a free key with an unknown code, writing nothing", async () => {
    const before = await rowCounts(app.database.db);
    const refused = await anyone("POST", "/api/auth/key/generate-free", {
      deviceId: newDevice(),
      referralCode: "ghost-code",
    });
    expect(refused).toEqual({
      status: 400,
      body: { success: false, error: "Invalid referral code" },
    });
    expect(await rowCounts(app.database.db)).toEqual(before);
  });

  it("lets a device that has a free key buy another key", async () => {
    const deviceId = newDevice();
    await anyone("POST", "/api/auth/key/generate-free", { deviceId });
    const bought = await anyone("POST", "/api/auth/payment", { deviceId });
    expect(bought.status).toBe(200);
    const twice = await anyone("POST", "/api/auth/key/generate-free", { deviceId });
    expect(twice.status).toBe(409);
  });
});

describe("referral rewards", () => {
  it("credits a key purchase's referrer once when two processes see the payment", async () => {
    const referrer = await referrerWith(app, "two-procs");
    const deviceId = newDevice();
    const started = await anyone("POST", "/api/auth/payment", {
      deviceId,
      referralCode: "two-procs",
    });
    const { paymentId, paymentAddress, paymentAmount } = started.body as Record<string, string>;
    await (await payerOn(testChain)).pay(
      paymentAddress as Address,
      parseEther(paymentAmount ?? ""),
    );
    await creditRace(paymentId as string);

    const reward = usdToWei("0.4", 600);
    expect(await rewardsOf(paymentId as string)).toMatchObject([
      { kind: "access_key", amount: reward.toString() },
    ]);
    // The ledger, not the order of two writes, makes it once: crediting again adds nothing.
    const [payment] = await app.database.db
      .select()
      .from(payments)
      .where(eq(payments.id, paymentId as string));
    await app.database.db.transaction(async (tx) => {
      if (payment) await app.referrals.credited(tx, payment);
    });
    expect(await referralInfoOf(app, referrer)).toMatchObject({
      earned: formatEther(reward),
      claimable: formatEther(reward),
    });
  });

  it("credits a referred user's launch fee share (referralReward / price) once across two processes", async () => {
    const referrer = await referrerWith(app, "fee-share");
    const user = await freeKey("fee-share");
    const draft = await call("POST", "/api/draft/create", draftInput(), user);
    const draftId = draft.body.draftId as string;
    const paying = await call("POST", `/api/draft/${draftId}/payment`, undefined, user);
    expect(paying.status, JSON.stringify(paying.body)).toBe(200);
    const address = paying.body.paymentAddress as Address;
    await (await payerOn(testChain)).pay(address, parseEther("0.01"));
    const [payment] = await app.database.db
      .select()
      .from(payments)
      .where(eq(payments.address, address));
    await creditRace(payment?.id as string);

    // 10% of the 0.01 BNB fee with the defaults (0.4 / 4).
    expect(await rewardsOf(payment?.id as string)).toMatchObject([
      { kind: "launch_fee", amount: parseEther("0.001").toString() },
    ]);
    expect(await referralInfoOf(app, referrer)).toMatchObject({
      uses: 1,
      earned: "0.001",
      claimable: "0.001",
    });
  });

  it("rewards nothing for the launch fee of a user nobody referred", async () => {
    const user = await freeKey();
    const draft = await call("POST", "/api/draft/create", draftInput(), user);
    const paying = await call("POST", `/api/draft/${draft.body.draftId}/payment`, undefined, user);
    const address = paying.body.paymentAddress as Address;
    await (await payerOn(testChain)).pay(address, parseEther("0.01"));
    const [payment] = await app.database.db
      .select()
      .from(payments)
      .where(eq(payments.address, address));
    await creditRace(payment?.id as string);
    expect(await rewardsOf(payment?.id as string)).toEqual([]);
  });
});

describe("a referrer's own money", () => {
  /** A referrer whose draft holds a deployer wallet (its key in the vault) with 1 BNB. */
  const referrerWithWallet = async (code: string) => {
    const key = await referrerWith(app, code);
    const input = draftInput();
    expect((await call("POST", "/api/draft/create", input, key)).status).toBe(200);
    const wallet = privateKeyToAccount(input.deployerWallet.privateKey as Hex);
    await testChain.rpc("anvil_setBalance", [wallet.address, `0x${parseEther("1").toString(16)}`]);
    return { key, wallet };
  };
  const payFrom = async (account: LocalAccount, to: Address, value: bigint) => {
    const hash = await createWalletClient({
      account,
      transport: http(testChain.local.rpcUrl),
    }).sendTransaction({ chain: null, to, value });
    await testChain.chain.client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
  };
  /** A key bought on a fresh device with `code` (no key sent), paid by `payer`: its payment id. */
  const keyBoughtWith = async (code: string, payer: LocalAccount) => {
    const deviceId = newDevice();
    const started = await anyone("POST", "/api/auth/payment", { deviceId, referralCode: code });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const { paymentId, paymentAddress, paymentAmount } = started.body as Record<string, string>;
    await payFrom(payer, paymentAddress as Address, parseEther(paymentAmount as string));
    await creditRace(paymentId as string);
    return { paymentId: paymentId as string, deviceId };
  };

  it("earns no reward for a key bought with the referrer's code and paid from the referrer's own wallet", async () => {
    const { key, wallet } = await referrerWithWallet("own-wallet");
    const { paymentId } = await keyBoughtWith("own-wallet", wallet);
    expect(await rewardsOf(paymentId)).toEqual([]);
    expect(await referralInfoOf(app, key)).toMatchObject({ earned: "0", claimable: "0" });
  });

  it("earns no launch-fee share from a user whose key the referrer's own wallet paid for", async () => {
    const { key, wallet } = await referrerWithWallet("own-wallet-fees");
    const bought = await keyBoughtWith("own-wallet-fees", wallet);
    const status = await anyone(
      "GET",
      `/api/auth/payment/status?paymentId=${bought.paymentId}&deviceId=${bought.deviceId}`,
    );
    const user = status.body.key as string;
    expect(user).toBeTruthy();
    const draft = await call("POST", "/api/draft/create", draftInput(), user);
    const paying = await call("POST", `/api/draft/${draft.body.draftId}/payment`, undefined, user);
    expect(paying.status, JSON.stringify(paying.body)).toBe(200);
    const address = paying.body.paymentAddress as Address;
    // From a wallet the referrer never used: the key's purchase already tells.
    await (await payerOn(testChain)).pay(address, parseEther("0.01"));
    const [payment] = await app.database.db
      .select()
      .from(payments)
      .where(eq(payments.address, address));
    await creditRace(payment?.id as string);
    expect(await rewardsOf(payment?.id as string)).toEqual([]);
    expect(await referralInfoOf(app, key)).toMatchObject({ earned: "0" });
  });
});
