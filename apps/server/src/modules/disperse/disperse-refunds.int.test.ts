import { eq } from "drizzle-orm";
import { type Address, formatEther, parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { dispersals } from "../../db/schema.ts";
import { contractPayerOn, forwarderOn } from "../../test/forwarder.ts";
import { fresh, useDisperseTestbed } from "./disperse.test-support.ts";

// Money that goes back: returns from a destination that refuses BNB, refunds of what is not owed.
const ctx = useDisperseTestbed();
const {
  rpc,
  call,
  balance,
  payer,
  create,
  status,
  tickUntil,
  untilStatus,
  ledger,
  expectConservation,
  expectRouteEmpty,
} = ctx;

describe("when a destination refuses BNB", () => {
  it("ends partial with n-1/n delivered and the stuck amount back at the funder", async () => {
    const refuser = fresh();
    await rpc("anvil_setCode", [refuser, "0x60006000fd"]); // REVERT on any call
    const wallets = [fresh(), refuser, fresh()];
    const created = await create(wallets, ["0.01", "0.02", "0.03"], true);
    const { address: funder, pay } = await payer();
    const paid = parseEther(created.amount);
    await pay(created.receiver, paid);
    await untilStatus(created.receiver, "partial", "failed", "completed");

    const done = await status(created.receiver);
    expect(done.status).toBe("partial");
    expect(done.chains.filter((c) => c.completed)).toHaveLength(2);
    expect(done.chains[1]).toMatchObject({ completed: false, failed: true });
    const { fee } = await ledger(created.receiver);
    expect(done.refunds).toEqual([
      expect.objectContaining({
        kind: "return",
        to: funder,
        amount: formatEther(parseEther("0.02") - fee),
        status: "confirmed",
      }),
    ]);
    expect(await balance(refuser)).toBe(0n);
    await expectRouteEmpty(created.receiver);
    await expectConservation(created.receiver, paid);
  });

  it("ends failed when no destination takes its BNB, with everything back at the funder", async () => {
    const refuser = fresh();
    await rpc("anvil_setCode", [refuser, "0x60006000fd"]);
    const created = await create([refuser], ["0.05"], false);
    const { pay } = await payer();
    const paid = parseEther(created.amount);
    await pay(created.receiver, paid);
    await untilStatus(created.receiver, "partial", "failed", "completed");
    expect((await status(created.receiver)).status).toBe("failed");
    expect(await balance(created.receiver)).toBe(0n);
    await expectConservation(created.receiver, paid);
  });
});

describe("funding by a contract", () => {
  it("delivers a dispersal paid in time by a contract's internal transfer, which no block scan finds", async () => {
    const destination = fresh();
    const created = await create([destination], ["0.01"], false);
    const payer = await contractPayerOn(ctx.testChain, await forwarderOn(ctx.testChain));
    await payer.pay(created.receiver as Address, parseEther(created.amount));
    await untilStatus(created.receiver, "completed");
    expect(await balance(destination)).toBe(parseEther("0.01"));
    expect(await balance(created.receiver)).toBe(0n);
    expect((await status(created.receiver)).refunds).toEqual([]);
  });

  for (const order of ["before it", "after it had funded the dispersal"] as const)
    it(`refunds in full a plain transfer that came ${order}`, async () => {
      const created = await create([fresh()], ["0.01"], false);
      const contract = await contractPayerOn(ctx.testChain, await forwarderOn(ctx.testChain));
      const { address: plainPayer, pay } = await payer();
      const extra = parseEther("0.004");
      if (order === "before it") {
        await pay(created.receiver, extra);
        await ctx.app.disperseEngine?.tick();
        expect((await status(created.receiver)).status).toBe("pending");
      }
      await contract.pay(created.receiver as Address, parseEther(created.amount));
      if (order !== "before it") {
        await untilStatus(created.receiver, "completed");
        await pay(created.receiver, extra);
      }
      await tickUntil(async () => {
        const now = await status(created.receiver);
        return now.status === "completed" && now.refunds[0]?.status === "confirmed";
      });
      const { fee } = await ledger(created.receiver);
      const done = await status(created.receiver);
      expect(done.refunds).toHaveLength(1);
      expect(done.refunds[0]).toMatchObject({ kind: "refund", to: plainPayer });
      expect(parseEther(done.refunds[0]?.amount ?? "0")).toBe(extra - fee);
      expect(await balance(created.receiver)).toBe(0n);
    });
});

describe("payments that are not owed", () => {
  it("refunds what is paid over the amount, minus gas", async () => {
    const created = await create([fresh()], ["0.01"], false);
    const { address: payerAddress, pay } = await payer();
    const paid = parseEther(created.amount) + parseEther("0.5");
    await pay(created.receiver, paid);
    await tickUntil(async () => {
      const now = await status(created.receiver);
      return now.status === "completed" && now.refunds[0]?.status === "confirmed";
    });
    const { fee } = await ledger(created.receiver);
    const done = await status(created.receiver);
    expect(done.refunds[0]).toMatchObject({ kind: "refund", to: payerAddress });
    expect(parseEther(done.refunds[0]?.amount ?? "0")).toBe(parseEther("0.5") - fee);
    expect(await balance(created.receiver)).toBe(0n);
    await expectConservation(created.receiver, paid);
  });

  it("refunds a payment that was too small once the dispersal expires", async () => {
    const created = await create([fresh()], ["0.01"], false);
    const { pay } = await payer();
    const paid = parseEther("0.004");
    await pay(created.receiver, paid);
    await ctx.app.disperseEngine?.tick();
    expect((await status(created.receiver)).status).toBe("pending");
    await ctx.app.database.db
      .update(dispersals)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dispersals.receiver, created.receiver));
    await tickUntil(
      async () => (await status(created.receiver)).refunds[0]?.status === "confirmed",
    );
    const done = await status(created.receiver);
    expect(done.status).toBe("expired");
    expect(done.expiresIn).toBe(0);
    expect(await balance(created.receiver)).toBe(0n);
    await expectConservation(created.receiver, paid);
  });

  it("expires an unfunded dispersal and refunds a payment that arrives after expiry", async () => {
    const created = await create([fresh()], ["0.01"], true);
    await ctx.app.database.db
      .update(dispersals)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(dispersals.receiver, created.receiver));
    await untilStatus(created.receiver, "expired");
    const { pay } = await payer();
    const paid = parseEther(created.amount);
    await pay(created.receiver, paid);
    await tickUntil(
      async () => (await status(created.receiver)).refunds[0]?.status === "confirmed",
    );
    expect((await status(created.receiver)).status).toBe("expired");
    expect(await balance(created.receiver)).toBe(0n);
    await expectConservation(created.receiver, paid);
  });

  it("cancels a pending dispersal and refunds a payment made to it afterwards", async () => {
    const created = await create([fresh()], ["0.01"], false);
    const cancelled = await call("POST", "/api/wallets/disperse/cancel", {
      dispersalId: created.receiver,
    });
    expect(cancelled.body).toEqual({ success: true, message: "Dispersal cancelled" });
    const { pay } = await payer();
    const paid = parseEther(created.amount);
    await pay(created.receiver, paid);
    await tickUntil(
      async () => (await status(created.receiver)).refunds[0]?.status === "confirmed",
    );
    expect((await status(created.receiver)).status).toBe("cancelled");
    expect(await balance(created.receiver)).toBe(0n);
    await expectConservation(created.receiver, paid);
  });

  it("refuses to cancel a dispersal that is already funded", async () => {
    const created = await create([fresh()], ["0.01"], true);
    const { pay } = await payer();
    await pay(created.receiver, parseEther(created.amount));
    await untilStatus(created.receiver, "sending", "processing");
    const cancel = await call("POST", "/api/wallets/disperse/cancel", {
      dispersalId: created.receiver,
    });
    expect(cancel.status).toBe(409);
    expect(cancel.body.error).toContain("already funded");
    await untilStatus(created.receiver, "completed");
  });

  it("refunds a payment that arrives after the dispersal completed", async () => {
    const created = await create([fresh()], ["0.01"], false);
    const { pay } = await payer();
    const first = parseEther(created.amount);
    await pay(created.receiver, first);
    await untilStatus(created.receiver, "completed");
    await pay(created.receiver, parseEther("0.2"));
    await tickUntil(
      async () => (await status(created.receiver)).refunds[0]?.status === "confirmed",
    );
    expect(await balance(created.receiver)).toBe(0n);
    await expectConservation(created.receiver, first + parseEther("0.2"));
  });
});
