import type { Draft } from "@bundler/shared";
import { eq, inArray } from "drizzle-orm";
import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect } from "vitest";
import { chainTxs, payments } from "../../db/schema.ts";
import type { ChainContext } from "../../lib/chain-context.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { apiCaller, draftInput, payerOn } from "../../test/drafts-api.ts";
import { freshWatcher } from "../../test/payment-watcher.ts";

export const FEE = parseEther("0.01");
/** What one refund transfer's gas may cost at most here. */
export const REFUND_GAS_MAX = 21_000n * 10n ** 10n;

/** Waits until the wall clock is past `ms`. */
export const passed = async (ms: number) => {
  while (Date.now() <= ms + 5) await new Promise((resolve) => setTimeout(resolve, 50));
};

/**
 * A test chain and an app taking a 0.01 BNB launch fee to `treasury`, for one test file
 * (started before its tests, stopped after), a user's key, and the helpers that pay drafts'
 * fees and watch the payments. `testChain`, `chain` and `app` are getters: read them inside
 * a test.
 */
export const usePaymentTestbed = () => {
  let testChain: TestChain;
  let chain: ChainContext;
  let app: TestApp;
  let key: string;
  const treasury = privateKeyToAccount(generatePrivateKey()).address;

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

  return {
    get testChain() {
      return testChain;
    },
    get chain() {
      return chain;
    },
    get app() {
      return app;
    },
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
  };
};
