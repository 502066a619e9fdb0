import { startCountingProxy } from "@bundler/chain";
import { type Draft, QUOTAS } from "@bundler/shared";
import { eq, inArray, sql } from "drizzle-orm";
import {
  type Address,
  createPublicClient,
  formatEther,
  type Hex,
  http,
  type PublicClient,
  parseEther,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { chainTxs, drafts, payments } from "../../db/schema.ts";
import type { ChainContext } from "../../lib/chain-context.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { apiCaller, draftInput, payerOn } from "../../test/drafts-api.ts";
import { freshWatcher } from "../../test/payment-watcher.ts";
import { rowCounts } from "../../test/row-counts.ts";

let testChain: TestChain;
let chain: ChainContext;
let app: TestApp;
let key: string;
const treasury = privateKeyToAccount(generatePrivateKey()).address;
const FEE = parseEther("0.01");
/** What one refund transfer's gas may cost at most here. */
const REFUND_GAS_MAX = 21_000n * 10n ** 10n;

beforeAll(async () => {
  testChain = await startTestChain(Buffer.alloc(32, 9));
  chain = testChain.chain;
  app = await createTestApp({
    chain,
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

const call = apiCaller(
  () => app,
  () => key,
);
const payer = () => payerOn(testChain);
const balance = (address: Address) => chain.client.getBalance({ address });

const watcher = (onPaid?: () => void) => freshWatcher(app, chain, treasury, onPaid);

const newDraft = async () => {
  const { body } = await call("POST", "/api/draft/create", draftInput());
  return body.draftId as string;
};

const startPayment = async (id: string) => {
  const started = await call("POST", `/api/draft/${id}/payment`);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return started.body.paymentAddress as Address;
};

const draftOf = async (id: string) => (await call("GET", `/api/draft/${id}`)).body.draft as Draft;

const setExpiry = (address: Address, expiresAt: Date) =>
  app.database.db.update(payments).set({ expiresAt }).where(eq(payments.address, address));

/** The time of the block a transfer was mined in, ms. */
const minedAt = async (blockNumber: bigint) =>
  Number((await chain.client.getBlock({ blockNumber })).timestamp) * 1000;

/** Waits until the wall clock is past `ms`. */
const passed = async (ms: number) => {
  while (Date.now() <= ms + 5) await new Promise((resolve) => setTimeout(resolve, 50));
};

const refundSends = async (draftId: string) => {
  const ids = (
    await app.database.db
      .select({ id: payments.id })
      .from(payments)
      .where(eq(payments.draftId, draftId))
  ).map((row) => row.id);
  if (ids.length === 0) return [];
  return (
    await app.database.db.select().from(chainTxs).where(inArray(chainTxs.subject, ids))
  ).filter((t) => t.purpose === "payment-refund");
};

/**
 * Ticks fresh watchers (as restarts would), a block apart, until every payment's money is
 * settled: refunds and sweeps are mined, not just sent.
 */
const settle = async () => {
  for (let i = 0; i < 30; i++) {
    await watcher().tick();
    const unsettled = await app.database.db.select().from(payments);
    const open = await app.database.db.select().from(chainTxs);
    if (
      unsettled.every((p) => p.status === "open" || p.settledAt) &&
      open.every((t) => t.status !== "signed" && t.status !== "sent")
    )
      return;
    const block = await chain.client.getBlockNumber();
    while ((await chain.client.getBlockNumber()) === block)
      await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("payments did not settle");
};

describe("launch fee payment", () => {
  it("credits a payment exactly once across concurrent ticks and a restart, and sweeps the fee", async () => {
    const id = await newDraft();
    const address = await startPayment(id);
    // Resuming answers the same address.
    expect((await call("POST", `/api/draft/${id}/payment`)).body.paymentAddress).toBe(address);
    expect((await call("GET", `/api/draft/${id}/payment/status`)).body.isPaid).toBe(false);

    await (await payer()).pay(address, FEE);
    let credited = 0;
    const first = watcher(() => credited++);
    await Promise.all([first.tick(), first.tick()]);
    await watcher(() => credited++).tick(); // a "restarted" process
    await settle();
    expect(credited).toBe(1);
    const status = await call("GET", `/api/draft/${id}/payment/status`);
    expect(status.body).toMatchObject({ isPaid: true, status: "paid" });
    expect(await balance(treasury)).toBeGreaterThan(FEE - parseEther("0.001"));
    expect(await balance(address)).toBeLessThan(parseEther("0.0001"));
  });

  it("answers what the address received as the watcher last saw it, without a chain read per poll", async () => {
    const id = await newDraft();
    const address = await startPayment(id);
    await (await payer()).pay(address, FEE / 4n);
    expect((await call("GET", `/api/draft/${id}/payment/status`)).body.received).toBe("0");
    await watcher().tick();
    const status = await call("GET", `/api/draft/${id}/payment/status`);
    expect(status.body).toMatchObject({ isPaid: false, received: formatEther(FEE / 4n) });
  });

  it("credits a payment mined before expiry but first seen after it, and refunds nothing", async () => {
    const id = await newDraft();
    const address = await startPayment(id);
    const { blockNumber } = await (await payer()).pay(address, FEE);
    // The watcher was slow: the window closed (at the deposit's own block time) before it looked.
    const expiresAt = await minedAt(blockNumber);
    await setExpiry(address, new Date(expiresAt));
    await passed(expiresAt);
    let credited = 0;
    await watcher(() => credited++).tick();
    expect(credited).toBe(1);
    const draft = await draftOf(id);
    expect(draft.status).toBe("paid");
    expect(draft.refunds).toEqual([]);
    expect(await refundSends(id)).toEqual([]);
  });

  it("credits exactly once when the server restarts across the expiry of a payment made in time", async () => {
    const id = await newDraft();
    const address = await startPayment(id);
    let credited = 0;
    await watcher(() => credited++).tick(); // before the money: nothing to do
    const { blockNumber } = await (await payer()).pay(address, FEE);
    // The process dies here; it comes back after the window closed.
    const expiresAt = await minedAt(blockNumber);
    await setExpiry(address, new Date(expiresAt));
    await passed(expiresAt + 1500);
    await Promise.all([watcher(() => credited++).tick(), watcher(() => credited++).tick()]);
    await watcher(() => credited++).tick();
    expect(credited).toBe(1);
    const draft = await draftOf(id);
    expect(draft.status).toBe("paid");
    expect(draft.refunds).toEqual([]);
  });

  it("refunds a payment that arrives after expiry, and the draft shows amount, reason and hash", async () => {
    const id = await newDraft();
    const address = await startPayment(id);
    await setExpiry(address, new Date(Date.now() - 5000));
    await watcher().tick();
    expect((await draftOf(id)).status).toBe("draft");
    const { account, pay } = await payer();
    const before = await balance(account.address);
    const { gas } = await pay(address, FEE);
    await watcher().tick();
    await settle();
    const lost = before - (await balance(account.address)) - gas;
    expect(lost > 0n && lost <= REFUND_GAS_MAX).toBe(true);
    const [refund] = (await draftOf(id)).refunds;
    expect(refund).toMatchObject({
      to: account.address,
      reason: "Payment arrived after the payment window expired",
      status: "sent",
    });
    expect(parseEther(refund?.amount ?? "0")).toBe(FEE - lost);
    const receipt = await chain.client.getTransactionReceipt({ hash: refund?.txHash as Hex });
    expect(receipt.to?.toLowerCase()).toBe(account.address.toLowerCase());
  });

  it("expires an unpaid payment only once the chain, not just the clock, has passed its window", async () => {
    const id = await newDraft();
    const address = await startPayment(id);
    const expiresAt = Date.now() + 2000;
    await setExpiry(address, new Date(expiresAt));
    // This server's clock runs a minute ahead: by the clock the window closed long ago, but
    // the chain's latest block is still inside it, so a transfer could yet land in time.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60_000 });
    try {
      await watcher().tick();
    } finally {
      vi.useRealTimers();
    }
    expect((await draftOf(id)).status).toBe("pending_payment");
    while (Number((await chain.client.getBlock()).timestamp) * 1000 <= expiresAt + 1000)
      await new Promise((resolve) => setTimeout(resolve, 200));
    await watcher().tick();
    expect((await draftOf(id)).status).toBe("draft");
  });

  it("refunds a payment that arrives after cancellation, once, and the draft shows it", async () => {
    const id = await newDraft();
    const address = await startPayment(id);
    expect((await call("POST", `/api/draft/${id}/payment/cancel`)).status).toBe(200);
    expect((await draftOf(id)).status).toBe("draft");
    const { account, pay } = await payer();
    const before = await balance(account.address);
    const { gas } = await pay(address, FEE);
    await watcher().tick();
    await settle();
    const lost = before - (await balance(account.address)) - gas;
    expect(lost > 0n && lost <= REFUND_GAS_MAX).toBe(true);
    const draft = await draftOf(id);
    expect(draft.status).toBe("draft");
    expect(draft.refunds).toHaveLength(1);
    expect(draft.refunds[0]).toMatchObject({
      to: account.address,
      amount: formatEther(FEE - lost),
      reason: "Payment arrived for a cancelled payment",
      status: "sent",
    });
    expect(draft.refunds[0]?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    // A second watcher (restart) never refunds twice.
    await watcher().tick();
    expect(
      (await refundSends(id)).filter((s) => s.status === "mined" || s.status === "sent"),
    ).toHaveLength(1);
  });

  it("credits an overpayment and refunds the excess to its sender, shown on the draft", async () => {
    const id = await newDraft();
    const address = await startPayment(id);
    const treasuryBefore = await balance(treasury);
    const { account, pay } = await payer();
    const before = await balance(account.address);
    const { gas, hash } = await pay(address, FEE * 3n);
    await watcher().tick();
    await settle();
    const draft = await draftOf(id);
    expect(draft.status).toBe("paid");
    const spent = before - (await balance(account.address)) - gas;
    // The payer is out the fee plus one refund's gas.
    expect(spent - FEE > 0n && spent - FEE <= REFUND_GAS_MAX).toBe(true);
    expect(draft.refunds).toHaveLength(1);
    expect(draft.refunds[0]).toMatchObject({
      to: account.address,
      reason: "Paid 0.03 BNB, more than the 0.01 BNB fee",
      status: "sent",
    });
    expect(parseEther(draft.refunds[0]?.amount ?? "0")).toBe(FEE * 3n - spent);
    expect(draft.refunds[0]?.txHash).not.toBe(hash);
    const swept = (await balance(treasury)) - treasuryBefore;
    expect(swept > FEE - parseEther("0.001") && swept < FEE).toBe(true);
  });
});

describe("paying for a draft", () => {
  it("refuses a draft that is not ready to launch, naming what is missing in the spec's words", async () => {
    type Input = ReturnType<typeof draftInput>;
    const cases: Array<[(input: Input) => unknown, string]> = [
      [(i) => ({ ...i, tokenInfo: { ...i.tokenInfo, image: "" } }), "Please upload a logo"],
      [(i) => ({ ...i, deployerWallet: undefined }), "Invalid deployer private key"],
      [
        (i) => ({ ...i, walletConfig: { ...i.walletConfig, tip: "" } }),
        "Please enter a tip amount",
      ],
    ];
    for (const [change, message] of cases) {
      const { body } = await call("POST", "/api/draft/create", change(draftInput()));
      const refused = await call("POST", `/api/draft/${body.draftId}/payment`);
      expect(refused.status, message).toBe(400);
      expect(refused.body.error).toBe(message);
      expect((await draftOf(body.draftId as string)).status).toBe("draft");
    }
  });

  it("refuses a stored name over 20 characters and a ticker over 10 with the spec's words", async () => {
    for (const [field, value, message] of [
      ["name", "A name of 21 letters!", "Name must be less than 20 characters"],
      ["symbol", "ELEVENCHARS", "Ticker must be less than 10 characters"],
    ] as const) {
      const id = await newDraft();
      // Saved before today's limits: the row holds what the form would now refuse.
      const [row] = await app.database.db.select().from(drafts).where(eq(drafts.id, id));
      await app.database.db
        .update(drafts)
        .set({ tokenInfo: { ...(row?.tokenInfo as object), [field]: value } })
        .where(eq(drafts.id, id));
      const refused = await call("POST", `/api/draft/${id}/payment`);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe(message);
    }
  });
});

describe("starting a payment", () => {
  it("stores the payment key only together with the payment and the draft's move to pending", async () => {
    const id = await newDraft();
    const before = await rowCounts(app.database.db);
    const store = app.vault.store.bind(app.vault);
    const spy = vi.spyOn(app.vault, "store").mockImplementationOnce(async (...args) => {
      await store(...args);
      throw new Error("connection lost");
    });
    const answer = await call("POST", `/api/draft/${id}/payment`);
    spy.mockRestore();
    expect(answer.status).toBe(500);
    expect(await rowCounts(app.database.db)).toEqual(before);
    expect((await draftOf(id)).status).toBe("draft");
  });
});

describe("the open payments quota", () => {
  it("refuses a sixth open payment with 409, saying what to do, and writes nothing", async () => {
    const owner = await app.auth.mintKey("user");
    const as = (method: "GET" | "POST", url: string, payload?: unknown) =>
      call(method, url, payload, owner);
    const drafts: string[] = [];
    for (let i = 0; i <= QUOTAS.openPayments; i++)
      drafts.push((await as("POST", "/api/draft/create", draftInput())).body.draftId as string);
    for (const id of drafts.slice(0, QUOTAS.openPayments))
      expect((await as("POST", `/api/draft/${id}/payment`)).status).toBe(200);

    const last = drafts[QUOTAS.openPayments] as string;
    const before = await rowCounts(app.database.db);
    const refused = await as("POST", `/api/draft/${last}/payment`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      success: false,
      error:
        "You already have 5 launch-fee payments open, the most one key may keep: pay or cancel one of them, then try again",
    });
    expect(await rowCounts(app.database.db)).toEqual(before);
    expect(((await as("GET", `/api/draft/${last}`)).body.draft as Draft).status).toBe("draft");

    expect((await as("POST", `/api/draft/${drafts[0]}/payment/cancel`)).status).toBe(200);
    expect((await as("POST", `/api/draft/${last}/payment`)).status).toBe(200);
  });

  it("answers an open payment's address again even at the limit", async () => {
    expect(QUOTAS.openPayments).toBe(5);
    const owner = await app.auth.mintKey("user");
    const drafts: string[] = [];
    for (let i = 0; i < QUOTAS.openPayments; i++) {
      const { body } = await call("POST", "/api/draft/create", draftInput(), owner);
      drafts.push(body.draftId as string);
      await call("POST", `/api/draft/${body.draftId}/payment`, undefined, owner);
    }
    const again = await call("POST", `/api/draft/${drafts[0]}/payment`, undefined, owner);
    expect(again.status).toBe(200);
  });
});

describe("resuming a payment", () => {
  it("lets a draft waiting for its payment be saved, and paying it again answers the same address", async () => {
    const id = await newDraft();
    const address = await startPayment(id);
    const draft = await draftOf(id);
    const saved = await call("PUT", `/api/draft/${id}`, {
      tokenInfo: { ...draft.tokenInfo, name: "Renamed Moon" },
      deployerWallet: draft.deployerWallet,
      walletConfig: draft.walletConfig,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((saved.body.draft as Draft).status).toBe("pending_payment");
    expect((saved.body.draft as Draft).tokenInfo.name).toBe("Renamed Moon");
    expect(await startPayment(id)).toBe(address);
  });

  it("opens a new address once the window has passed, and still refunds a late transfer to the old one", async () => {
    const id = await newDraft();
    const old = await startPayment(id);
    await setExpiry(old, new Date(Date.now() - 10));
    const fresh = await startPayment(id);
    expect(fresh).not.toBe(old);
    expect((await draftOf(id)).paymentAddress).toBe(fresh);
    const { account, pay } = await payer();
    await pay(old, FEE);
    await watcher().tick();
    await settle();
    const draft = await draftOf(id);
    expect(draft.status).toBe("pending_payment");
    expect(draft.refunds).toHaveLength(1);
    expect(draft.refunds[0]).toMatchObject({
      to: account.address,
      reason: "Payment arrived after the payment window expired",
      status: "sent",
    });
    // The new address still takes the fee.
    await pay(fresh, FEE);
    await watcher().tick();
    expect((await draftOf(id)).status).toBe("paid");
  });

  it("keeps a payment that reached the address as its window closed for the watcher to judge", async () => {
    const id = await newDraft();
    const address = await startPayment(id);
    const { blockNumber } = await (await payer()).pay(address, FEE);
    await setExpiry(address, new Date(await minedAt(blockNumber)));
    const again = await call("POST", `/api/draft/${id}/payment`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/being checked/);
    await watcher().tick();
    expect((await draftOf(id)).status).toBe("paid");
  });
});

describe("watching payment addresses", () => {
  it("leaves settled payments alone: an idle tick reads no balance and writes no payment", async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, () => newDraft()));
    for (const id of ids) {
      await startPayment(id);
      expect((await call("POST", `/api/draft/${id}/payment/cancel`)).status).toBe(200);
    }
    // Earlier tests' payments still open close too: only settled money is left.
    await app.database.db
      .update(payments)
      .set({ status: "expired", closedAt: new Date() })
      .where(eq(payments.status, "open"));
    await settle();
    const proxy = await startCountingProxy(testChain.local.builderUrl);
    try {
      const counted = {
        ...chain,
        rpcUrl: proxy.url,
        client: createPublicClient({ transport: http(proxy.url), cacheTime: 0 }) as PublicClient,
      };
      const versions = async () =>
        (await app.database.db.execute(sql`select id, xmin::text as v from payments order by id`))
          .rows;
      const before = await versions();
      proxy.reset();
      await freshWatcher(app, counted, treasury).tick();
      const methods = proxy.seen.flatMap((request) => request.methods);
      expect(methods).not.toContain("eth_call");
      expect(methods).not.toContain("eth_getBalance");
      expect(await versions()).toEqual(before);
    } finally {
      await proxy.close();
    }
  });
});
