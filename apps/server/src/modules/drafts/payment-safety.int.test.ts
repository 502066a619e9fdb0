import type { Dispersal, Draft } from "@bundler/shared";
import { and, asc, eq } from "drizzle-orm";
import { type Address, createWalletClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chainTxs } from "../../db/schema.ts";
import type { ChainContext } from "../../lib/chain-context.ts";
import { armFailpoint, disarmFailpoints } from "../../lib/failpoints.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { apiCaller, draftInput, payerOn } from "../../test/drafts-api.ts";
import { contractPayerOn, forwarderOn } from "../../test/forwarder.ts";

/** Issue 11, items 2, 3 and 10: every refund and sweep happens once, to the right place. */
let testChain: TestChain;
let chain: ChainContext;
let app: TestApp;
let key: string;
const treasury = privateKeyToAccount(generatePrivateKey()).address;
const masterKey = Buffer.alloc(32, 12);
const FEE = parseEther("0.01");

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  ({ chain } = testChain);
  app = await createTestApp({
    chain,
    masterKey,
    launchFeeBnb: "0.01",
    treasuryAddress: treasury,
    bodyLimitBytes: 2 * 1024 * 1024,
  });
  key = await app.auth.mintKey("user");
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});
afterEach(async () => {
  disarmFailpoints();
  await testChain.faults({});
});

const call = apiCaller(
  () => app,
  () => key,
);
const balance = (address: Address) => chain.client.getBalance({ address });
const sent = (address: Address) => chain.client.getTransactionCount({ address });

/** A watcher as a freshly started process builds it. */
const watcher = () => {
  const { paymentWatcher } = app.fresh();
  if (!paymentWatcher) throw new Error("no payment watcher");
  return paymentWatcher;
};

const nextBlock = async () => {
  const now = await chain.client.getBlockNumber();
  while ((await chain.client.getBlockNumber()) === now)
    await new Promise((resolve) => setTimeout(resolve, 100));
};

/** Ticks (a fresh watcher each block, as restarts would) until `done` holds. */
const tickUntil = async (done: () => Promise<boolean>, blocks = 20) => {
  for (let i = 0; i < blocks; i++) {
    await watcher()
      .tick()
      .catch(() => {});
    await app.disperseEngine?.tick().catch(() => {});
    if (await done()) return;
    await nextBlock();
  }
  throw new Error("not settled in time");
};

const newDraft = async () =>
  (await call("POST", "/api/draft/create", draftInput())).body.draftId as string;
const startPayment = async (id: string) =>
  (await call("POST", `/api/draft/${id}/payment`)).body.paymentAddress as Address;
const cancelledPayment = async () => {
  const id = await newDraft();
  const address = await startPayment(id);
  expect((await call("POST", `/api/draft/${id}/payment/cancel`)).status).toBe(200);
  return { id, address };
};
/** Runs `work` while the chain mines nothing (transactions wait in the mempool). */
const paused = async (work: () => Promise<void>) => {
  await testChain.setBlockTime(0);
  try {
    await work();
  } finally {
    await testChain.setBlockTime();
  }
};
const GAS_AT_MOST = parseEther("0.0005");

const draftOf = async (id: string) => (await call("GET", `/api/draft/${id}`)).body.draft as Draft;

describe("refunds and sweeps", () => {
  it("refunds each late payment once although the process died after recording a refund and came back while nothing was mined (item 2)", async () => {
    const { id, address } = await cancelledPayment();
    const [a, b] = [await payerOn(testChain), await payerOn(testChain)];
    await a.pay(address, FEE);
    await b.pay(address, FEE);
    const before = [await balance(a.account.address), await balance(b.account.address)];
    armFailpoint("tx.recorded", "throw", 1);
    await expect(watcher().tick()).rejects.toThrow(/failpoint/);
    // The next process starts while the chain mines nothing for a while.
    await paused(() => watcher().tick());
    await tickUntil(async () => (await balance(address)) === 0n);
    for (let i = 0; i < 3; i++) {
      await watcher().tick();
      await nextBlock();
    }
    expect(await sent(address)).toBe(2);
    const refunded = [
      (await balance(a.account.address)) - (before[0] ?? 0n),
      (await balance(b.account.address)) - (before[1] ?? 0n),
    ];
    for (const value of refunded) expect(value > FEE - GAS_AT_MOST && value < FEE).toBe(true);
    const refunds = (await draftOf(id)).refunds;
    expect(refunds.map((r) => r.to).sort()).toEqual([a.account.address, b.account.address].sort());
  }, 180_000);

  it("sweeps only the fee, and only after the excess went back, when the refund could not go out at first (item 3)", async () => {
    const id = await newDraft();
    const address = await startPayment(id);
    const { account, pay } = await payerOn(testChain);
    const extra = parseEther("0.004");
    await pay(address, FEE + extra);
    const treasuryBefore = await balance(treasury);
    const payerBefore = await balance(account.address);
    // The node refuses the refund for a few blocks (not the sweep, which goes elsewhere).
    await testChain.faults({ refuseRawTo: [account.address] });
    for (let i = 0; i < 3; i++) {
      await watcher().tick();
      await nextBlock();
    }
    await testChain.faults({});
    expect((await draftOf(id)).status).toBe("paid");
    await tickUntil(async () => (await balance(address)) === 0n);
    const refunded = (await balance(account.address)) - payerBefore;
    const swept = (await balance(treasury)) - treasuryBefore;
    expect(refunded > extra - GAS_AT_MOST && refunded < extra).toBe(true);
    expect(swept > FEE - GAS_AT_MOST && swept < FEE).toBe(true);
    expect(await sent(address)).toBe(2);
  }, 180_000);

  for (const order of ["before it", "after it had paid the fee"] as const)
    it(`refunds in full a plain transfer that came ${order}, beside a contract's payment the scan does not see`, async () => {
      const id = await newDraft();
      const address = await startPayment(id);
      const contract = await contractPayerOn(testChain, await forwarderOn(testChain));
      const plain = await payerOn(testChain);
      const extra = parseEther("0.004");
      const plainBefore = await balance(plain.account.address);
      const treasuryBefore = await balance(treasury);
      let gas = 0n;
      if (order === "before it") {
        gas = (await plain.pay(address, extra)).gas;
        await watcher().tick();
        expect((await draftOf(id)).status).toBe("pending_payment");
      }
      await contract.pay(address, FEE);
      if (order !== "before it") {
        await tickUntil(async () => (await draftOf(id)).status === "paid");
        gas = (await plain.pay(address, extra)).gas;
      }
      await tickUntil(async () => (await balance(address)) === 0n);
      expect((await draftOf(id)).status).toBe("paid");
      const refunded = (await balance(plain.account.address)) - plainBefore + gas + extra;
      expect(refunded > extra - GAS_AT_MOST && refunded < extra).toBe(true);
      const swept = (await balance(treasury)) - treasuryBefore;
      expect(swept > FEE - GAS_AT_MOST && swept < FEE).toBe(true);
      expect(await sent(address)).toBe(2);
    }, 180_000);

  it("sends a deposit that came from one of our dispersal wallets to that dispersal's funder (item 10)", async () => {
    const { id, address } = await cancelledPayment();
    const funder = await payerOn(testChain);
    const created = await call("POST", "/api/wallets/disperse", {
      wallets: [address],
      amounts: ["0.01"],
      antiBubblemaps: false,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const dispersal = created.body as unknown as Dispersal;
    await funder.pay(dispersal.receiver as Address, parseEther(dispersal.amount));
    const funderBefore = await balance(funder.account.address);
    await tickUntil(async () => (await draftOf(id)).refunds.some((r) => r.status === "sent"), 30);
    const [refund] = (await draftOf(id)).refunds;
    expect(refund?.to).toBe(funder.account.address);
    expect(await balance(funder.account.address)).toBeGreaterThan(funderBefore);
    // Nothing bounces back into the dispersal's receiver.
    for (let i = 0; i < 3; i++) {
      await app.disperseEngine?.tick();
      await nextBlock();
    }
    expect(await balance(dispersal.receiver as Address)).toBe(0n);
  });

  it("holds a deposit that came from another payment address, and the draft says so (item 10)", async () => {
    const { id, address } = await cancelledPayment();
    const other = await startPayment(await newDraft());
    const otherKey = await app.vault.find(other, "payment");
    if (!otherKey) throw new Error("no key for the other payment address");
    await testChain.rpc("anvil_setBalance", [other, `0x${parseEther("0.1").toString(16)}`]);
    const wallet = createWalletClient({
      account: privateKeyToAccount(otherKey),
      transport: http(testChain.local.rpcUrl),
    });
    const hash = await wallet.sendTransaction({ chain: null, to: address, value: FEE });
    await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
    await tickUntil(async () => (await draftOf(id)).refunds.length > 0);
    for (let i = 0; i < 2; i++) {
      await watcher().tick();
      await nextBlock();
    }
    const [held] = (await draftOf(id)).refunds;
    expect(held).toMatchObject({ to: other, status: "held" });
    expect(held?.reason).toMatch(/our own/);
    expect(await sent(address)).toBe(0);
    expect(await balance(address)).toBe(FEE);
  });
});

describe("a refund dropped, then landed late", () => {
  let late: TestApp;
  beforeAll(async () => {
    // A refund the node refuses is given up after 1.5 s instead of 10 minutes.
    late = await createTestApp({
      chain,
      masterKey,
      launchFeeBnb: "0.01",
      treasuryAddress: treasury,
      transactions: { dropAfterMs: 1500, rebroadcastAfterMs: 300 },
    });
  });
  afterAll(async () => {
    await late?.close();
  });

  it("refunds the excess once although the dropped first refund landed after its retry was recorded", async () => {
    const lateKey = await late.auth.mintKey("user");
    const lateCall = apiCaller(
      () => late,
      () => lateKey,
    );
    const id = (await lateCall("POST", "/api/draft/create", draftInput())).body.draftId as string;
    const address = (await lateCall("POST", `/api/draft/${id}/payment`)).body
      .paymentAddress as Address;
    const { account, pay } = await payerOn(testChain);
    const extra = parseEther("0.004");
    await pay(address, FEE + extra);
    const payerBefore = await balance(account.address);
    const treasuryBefore = await balance(treasury);
    const refunds = () =>
      late.database.db
        .select()
        .from(chainTxs)
        .where(and(eq(chainTxs.from, address), eq(chainTxs.purpose, "payment-refund")))
        .orderBy(asc(chainTxs.createdAt));
    const tick = async () => {
      await late.fresh().paymentWatcher?.tick();
      await late.transactions?.reconcile();
    };
    // The node refuses the refund until it is dropped and its retry is recorded.
    await testChain.faults({ refuseRawTo: [account.address] });
    for (let i = 0; i < 40 && (await refunds()).length < 2; i++) {
      await tick();
      await nextBlock();
    }
    const [first, second] = await refunds();
    expect(first?.status).toBe("dropped");
    expect(second?.nonce).toBe(first?.nonce);
    // A node that kept the first one passes it on.
    await testChain.rpc("eth_sendRawTransaction", [first?.rawTx]);
    await testChain.mine();
    await testChain.faults({});
    for (let i = 0; i < 40 && (await balance(address)) > 0n; i++) {
      await tick();
      await nextBlock();
    }
    for (let i = 0; i < 3; i++) {
      await tick();
      await nextBlock();
    }
    expect((await refunds()).map((row) => row.status)).toEqual(["mined", "replaced"]);
    const refunded = (await balance(account.address)) - payerBefore;
    expect(refunded > extra - GAS_AT_MOST && refunded < extra).toBe(true);
    const swept = (await balance(treasury)) - treasuryBefore;
    expect(swept > FEE - GAS_AT_MOST && swept < FEE).toBe(true);
    expect(await sent(address)).toBe(2);
  }, 180_000);
});
