import type { Draft, DraftSummary } from "@bundler/shared";
import { eq } from "drizzle-orm";
import { type Address, erc20Abi, parseEther } from "viem";
import { describe, expect, it, vi } from "vitest";
import { delayedBuys, drafts as draftsTable } from "../../db/schema.ts";
import { useLaunchTestbed } from "./launch.test-support.ts";

// The sniper's buy, held back from the bundle and made after the delay, also across a restart.
const ctx = useLaunchTestbed();
const { setBalance, call, newDraft, paidDraft } = ctx;

describe("execution", () => {
  /** Every draft id the list shows, across its pages. */
  const listed = async () => {
    const ids: string[] = [];
    for (let page = 1; ; page++) {
      const { body } = await call("GET", `/api/draft/list?page=${page}`);
      ids.push(...(body.drafts as DraftSummary[]).map((d) => d._id));
      if (page * (body.pageSize as number) >= (body.total as number)) return ids;
    }
  };

  it("holds the sniper back from the bundle and buys with it after the delay; an expired draft holding only tokens stays listed", async () => {
    const emitted: string[] = [];
    const spy = vi
      .spyOn(ctx.app.realtime, "emitToUser")
      .mockImplementation(async (_user, _kind, { message }) => {
        emitted.push(message);
      });
    const { id, input } = await paidDraft(3, (wallets) => ({
      delayEnabled: true,
      delaySnipeAddress: wallets[1]?.address,
      minDelay: 2,
      maxDelay: 2,
    }));
    const snipe = input.walletConfig.wallets[1]?.address as Address;
    await setBalance(input.deployerWallet.address, parseEther("1"));
    for (const w of input.walletConfig.wallets) await setBalance(w.address, parseEther("0.2"));

    expect((await call("POST", `/api/draft/${id}/execute`)).status).toBe(200);
    await ctx.app.launches.idle();
    expect(emitted, emitted.join("\n")).toContain(`Delayed buy by ${snipe} scheduled in 2 s`);
    await ctx.app.launches.delayedIdle();
    spy.mockRestore();

    const launched = (await call("GET", `/api/draft/${id}`)).body.draft as Draft;
    expect(launched.status, emitted.join("\n")).toBe("executed");
    const launch = launched.launch;
    if (!launch) throw new Error("no launch recorded");
    expect(launch.totalWallets).toBe(2);
    expect(launch.atomicWallets).toBe(2);
    const block = await ctx.chain.client.getBlock({
      blockNumber: BigInt(launch.blockNumber),
      includeTransactions: true,
    });
    expect(block.transactions.map((tx) => tx.from.toLowerCase())).not.toContain(
      snipe.toLowerCase(),
    );
    const success = emitted
      .map((m) => new RegExp(`^SUCCESS delayed buy by ${snipe}: (0x[0-9a-f]{64})$`).exec(m)?.[1])
      .find(Boolean);
    expect(success, emitted.join("\n")).toBeDefined();
    const receipt = await ctx.chain.client.getTransactionReceipt({
      hash: success as `0x${string}`,
    });
    expect(receipt.from.toLowerCase()).toBe(snipe.toLowerCase());
    expect(receipt.blockNumber).toBeGreaterThan(BigInt(launch.blockNumber));
    const held = await ctx.chain.client.readContract({
      address: launch.tokenAddress as Address,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [snipe],
    });
    expect(held).toBeGreaterThan(0n);
    const [row] = await ctx.app.database.db
      .select()
      .from(delayedBuys)
      .where(eq(delayedBuys.draftId, id));
    expect(row).toMatchObject({ status: "succeeded", txHash: success, wallet: snipe });

    // Expiry: the launched draft's wallets hold no BNB, only the token, and it stays listed;
    // an expired draft with nothing in its wallets is hidden.
    for (const address of [
      input.deployerWallet.address,
      ...input.walletConfig.wallets.map((w) => w.address),
    ])
      await setBalance(address, 0n);
    const empty = await newDraft(1);
    await ctx.app.database.db
      .update(draftsTable)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(draftsTable.id, id));
    await ctx.app.database.db
      .update(draftsTable)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(draftsTable.id, empty.id));
    const ids = await listed();
    expect(ids).toContain(id);
    expect(ids).not.toContain(empty.id);
  });

  it("runs a due delayed buy exactly once after a restart", async () => {
    const { id, input } = await paidDraft(2, (wallets) => ({
      delayEnabled: true,
      delaySnipeAddress: wallets[0]?.address,
      minDelay: 600,
      maxDelay: 600,
    }));
    const snipe = input.walletConfig.wallets[0]?.address as Address;
    await setBalance(input.deployerWallet.address, parseEther("1"));
    for (const w of input.walletConfig.wallets) await setBalance(w.address, parseEther("0.2"));
    expect((await call("POST", `/api/draft/${id}/execute`)).status).toBe(200);
    await ctx.app.launches.idle();
    // The process "dies" before the 600 s are up; the row is overdue when the next one starts.
    ctx.app.launches.stop();
    await ctx.app.database.db
      .update(delayedBuys)
      .set({ dueAt: new Date(Date.now() - 5000) })
      .where(eq(delayedBuys.draftId, id));
    expect(await ctx.chain.client.getTransactionCount({ address: snipe })).toBe(0);

    const emitted: string[] = [];
    const restarted = async () =>
      (
        await ctx.app.restarted((_u, m) => {
          emitted.push(m);
        })
      ).launches;
    const [a, b] = [await restarted(), await restarted()];
    await Promise.all([a.recover(), b.recover()]);
    await Promise.all([a.delayedIdle(), b.delayedIdle()]);
    expect(emitted.filter((m) => m.startsWith(`SUCCESS delayed buy by ${snipe}: 0x`))).toHaveLength(
      1,
    );
    expect(await ctx.chain.client.getTransactionCount({ address: snipe })).toBe(1);
    const [row] = await ctx.app.database.db
      .select()
      .from(delayedBuys)
      .where(eq(delayedBuys.draftId, id));
    expect(row?.status).toBe("succeeded");
    // A later start finds nothing left to do.
    const c = await restarted();
    await c.recover();
    await c.delayedIdle();
    expect(emitted.filter((m) => m.includes("delayed buy"))).toHaveLength(1);
  });
});
