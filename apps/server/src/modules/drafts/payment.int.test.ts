import { startCountingProxy } from "@bundler/chain";
import { eq, sql } from "drizzle-orm";
import {
  createPublicClient,
  formatEther,
  type Hex,
  http,
  type PublicClient,
  parseEther,
} from "viem";
import { describe, expect, it, vi } from "vitest";
import { payments } from "../../db/schema.ts";
import { freshWatcher } from "../../test/payment-watcher.ts";
import { FEE, passed, REFUND_GAS_MAX, usePaymentTestbed } from "./payment.test-support.ts";

const ctx = usePaymentTestbed();
const {
  treasury,
  call,
  payer,
  balance,
  watcher,
  newDraft,
  startPayment,
  draftOf,
  setExpiry,
  minedAt,
  refundSends,
  settle,
} = ctx;

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
    const receipt = await ctx.chain.client.getTransactionReceipt({ hash: refund?.txHash as Hex });
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
    while (Number((await ctx.chain.client.getBlock()).timestamp) * 1000 <= expiresAt + 1000)
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

describe("watching payment addresses", () => {
  it("leaves settled payments alone: an idle tick reads no balance and writes no payment", async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, () => newDraft()));
    for (const id of ids) {
      await startPayment(id);
      expect((await call("POST", `/api/draft/${id}/payment/cancel`)).status).toBe(200);
    }
    // Earlier tests' payments still open close too: only settled money is left.
    await ctx.app.database.db
      .update(payments)
      .set({ status: "expired", closedAt: new Date() })
      .where(eq(payments.status, "open"));
    await settle();
    const proxy = await startCountingProxy(ctx.testChain.local.builderUrl);
    try {
      const counted = {
        ...ctx.chain,
        rpcUrl: proxy.url,
        client: createPublicClient({ transport: http(proxy.url), cacheTime: 0 }) as PublicClient,
      };
      const versions = async () =>
        (
          await ctx.app.database.db.execute(
            sql`select id, xmin::text as v from payments order by id`,
          )
        ).rows;
      const before = await versions();
      proxy.reset();
      await freshWatcher(ctx.app, counted, treasury).tick();
      const methods = proxy.seen.flatMap((request) => request.methods);
      expect(methods).not.toContain("eth_call");
      expect(methods).not.toContain("eth_getBalance");
      expect(await versions()).toEqual(before);
    } finally {
      await proxy.close();
    }
  });
});
