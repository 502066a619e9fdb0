import { type Draft, QUOTAS } from "@bundler/shared";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { drafts } from "../../db/schema.ts";
import { draftInput } from "../../test/drafts-api.ts";
import { rowCounts } from "../../test/row-counts.ts";
import { FEE, usePaymentTestbed } from "./payment.test-support.ts";

// Starting a draft's fee payment: what is refused, the quota, and resuming one already open.
const ctx = usePaymentTestbed();
const { call, payer, watcher, newDraft, startPayment, draftOf, setExpiry, minedAt, settle } = ctx;

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
      const [row] = await ctx.app.database.db.select().from(drafts).where(eq(drafts.id, id));
      await ctx.app.database.db
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
    const before = await rowCounts(ctx.app.database.db);
    const store = ctx.app.vault.store.bind(ctx.app.vault);
    const spy = vi.spyOn(ctx.app.vault, "store").mockImplementationOnce(async (...args) => {
      await store(...args);
      throw new Error("connection lost");
    });
    const answer = await call("POST", `/api/draft/${id}/payment`);
    spy.mockRestore();
    expect(answer.status).toBe(500);
    expect(await rowCounts(ctx.app.database.db)).toEqual(before);
    expect((await draftOf(id)).status).toBe("draft");
  });
});

describe("the open payments quota", () => {
  it("refuses a sixth open payment with 409, saying what to do, and writes nothing", async () => {
    const owner = await ctx.app.auth.mintKey("user");
    const as = (method: "GET" | "POST", url: string, payload?: unknown) =>
      call(method, url, payload, owner);
    const drafts: string[] = [];
    for (let i = 0; i <= QUOTAS.openPayments; i++)
      drafts.push((await as("POST", "/api/draft/create", draftInput())).body.draftId as string);
    for (const id of drafts.slice(0, QUOTAS.openPayments))
      expect((await as("POST", `/api/draft/${id}/payment`)).status).toBe(200);

    const last = drafts[QUOTAS.openPayments] as string;
    const before = await rowCounts(ctx.app.database.db);
    const refused = await as("POST", `/api/draft/${last}/payment`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      success: false,
      error:
        "You already have 5 launch-fee payments open, the most one key may keep: pay or cancel one of them, then try again",
    });
    expect(await rowCounts(ctx.app.database.db)).toEqual(before);
    expect(((await as("GET", `/api/draft/${last}`)).body.draft as Draft).status).toBe("draft");

    expect((await as("POST", `/api/draft/${drafts[0]}/payment/cancel`)).status).toBe(200);
    expect((await as("POST", `/api/draft/${last}/payment`)).status).toBe(200);
  });

  it("answers an open payment's address again even at the limit", async () => {
    expect(QUOTAS.openPayments).toBe(5);
    const owner = await ctx.app.auth.mintKey("user");
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
