import type { Draft, LaunchPlan } from "@bundler/shared";
import { type Address, erc20Abi, parseEther, toHex } from "viem";
import { describe, expect, it, vi } from "vitest";
import { sealAccessKeyPayload } from "../../lib/envelope.ts";
import { newWallet } from "../../test/drafts-api.ts";
import { useLaunchTestbed } from "./launch.test-support.ts";

const ctx = useLaunchTestbed();
const { setBalance, call, captureTerminal, paidDraft } = ctx;

describe("execution", () => {
  it("fails with a reason and keeps the draft paid, then launches with every buy in the create's block", async () => {
    const emitted: string[] = [];
    const spy = vi
      .spyOn(ctx.app.realtime, "emitToUser")
      .mockImplementation(async (_user, _kind, { message }) => {
        emitted.push(message);
      });
    const logged = vi.spyOn(ctx.app.server.log, "warn");
    const { id, input } = await paidDraft(3);
    expect((await call("POST", `/api/draft/${id}/execute`, undefined, ctx.otherKey)).status).toBe(
      404,
    );

    // Nothing funded yet: the launch fails and names every short wallet, in BNB to 4 decimals.
    const first = await call("POST", `/api/draft/${id}/execute`);
    expect(first.status).toBe(200);
    await ctx.app.launches.idle();
    const failed = emitted.find((m) => m.startsWith("FAILED launch:")) ?? "";
    expect(failed, emitted.join("\n")).toMatch(
      /^FAILED launch: insufficient balance: 4 wallets are short: /,
    );
    for (const address of [
      input.deployerWallet.address,
      ...input.walletConfig.wallets.map((w) => w.address),
    ])
      expect(failed).toMatch(new RegExp(`wallet ${address} needs \\d+\\.\\d{4} BNB more(;|$)`));
    expect(((await call("GET", `/api/draft/${id}`)).body.draft as Draft).status).toBe("paid");
    // The operator's log names the failure too, with its owner.
    expect(logged).toHaveBeenCalledWith(`user ${ctx.userId}: ${failed}`);
    logged.mockRestore();

    await setBalance(input.deployerWallet.address, parseEther("1"));
    for (const w of input.walletConfig.wallets) await setBalance(w.address, parseEther("0.2"));
    emitted.length = 0;
    const started = await call("POST", `/api/draft/${id}/execute`);
    expect(started.status).toBe(200);
    const twice = await call("POST", `/api/draft/${id}/execute`);
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatch(/already being launched/);
    await ctx.app.launches.idle();
    expect(spy).toHaveBeenCalledWith(ctx.userId, "launch_status", expect.anything());
    spy.mockRestore();

    const draft = (await call("GET", `/api/draft/${id}`)).body.draft as Draft;
    expect(draft.status, emitted.join("\n")).toBe("executed");
    const launch = draft.launch;
    if (!launch) throw new Error("no launch recorded");
    expect(launch.totalWallets).toBe(3);
    expect(launch.atomicWallets).toBe(3);
    // The launch keeps the token's name, which the wallet manager shows without the draft.
    const listed = await call("GET", "/api/auth/bundles");
    expect(listed.body.bundles).toEqual([
      expect.objectContaining({ address: launch.tokenAddress, name: input.tokenInfo.name }),
    ]);
    expect(await ctx.chain.client.getCode({ address: launch.tokenAddress as Address })).not.toBe(
      "0x",
    );
    const block = await ctx.chain.client.getBlock({
      blockNumber: BigInt(launch.blockNumber),
      includeTransactions: true,
    });
    const senders = block.transactions.map((tx) => tx.from.toLowerCase());
    for (const address of [
      input.deployerWallet.address,
      ...input.walletConfig.wallets.map((w) => w.address),
    ])
      expect(senders).toContain(address.toLowerCase());
    for (const w of input.walletConfig.wallets) {
      const held = await ctx.chain.client.readContract({
        address: launch.tokenAddress as Address,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [w.address],
      });
      expect(held).toBeGreaterThan(0n);
    }
    expect(emitted.some((m) => m.startsWith("SUCCESS create transaction 0x"))).toBe(true);
    expect(emitted.some((m) => m.startsWith("SUCCESS BMOON launched"))).toBe(true);
    const again = await call("POST", `/api/draft/${id}/execute`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already launched/);
  });

  it("launches with every wallet holding exactly what the draft's plan asks, each getting the tokens it quoted", async () => {
    const { id } = await paidDraft(4, () => ({ tipPayer: newWallet() }));
    const answer = await call("GET", `/api/draft/${id}/summary`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const plan = answer.body.plan as LaunchPlan;
    expect(plan.totals.launchFeePaid).toBe(true);
    expect(plan.totals.launchFee).toBe("0.01");
    expect(plan.curve).toEqual({ graduates: false, soldOut: false, warning: null });
    expect(plan.funding).toHaveLength(6); // deployer, tip payer, 4 wallets
    for (const { address, required } of plan.funding)
      await setBalance(address as Address, parseEther(required));

    const emitted = await captureTerminal(async () => {
      expect((await call("POST", `/api/draft/${id}/execute`)).status).toBe(200);
      await ctx.app.launches.idle();
    });
    const draft = (await call("GET", `/api/draft/${id}`)).body.draft as Draft;
    expect(draft.status, emitted.join("\n")).toBe("executed");
    const token = draft.launch?.tokenAddress as Address;
    const held = (address: string) =>
      ctx.chain.client.readContract({
        address: token,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [address as Address],
      });
    for (const wallet of plan.wallets)
      expect(await held(wallet.address)).toBe(BigInt(wallet.tokenAmount));
    expect(await held(plan.creator.address as string)).toBe(BigInt(plan.creator.tokenAmount));
  });

  it("launches with every wallet holding exactly the plan's amounts after the gas price rose 40% since the plan", async () => {
    const { id } = await paidDraft(2, () => ({ tipPayer: newWallet() }));
    const plan = (await call("GET", `/api/draft/${id}/summary`)).body.plan as LaunchPlan;
    for (const { address, required } of plan.funding)
      await setBalance(address as Address, parseEther(required));
    // The next block's base fee puts the node's price (base fee + 1 gwei) 40% over the plan's.
    const planned = BigInt(plan.costs.gasPrice);
    await ctx.rpc("anvil_setNextBlockBaseFeePerGas", [toHex((planned * 140n) / 100n - 10n ** 9n)]);
    expect(await ctx.chain.client.getGasPrice()).toBeGreaterThan(planned);

    const emitted = await captureTerminal(async () => {
      expect((await call("POST", `/api/draft/${id}/execute`)).status).toBe(200);
      await ctx.app.launches.idle();
    });
    const draft = (await call("GET", `/api/draft/${id}`)).body.draft as Draft;
    expect(draft.status, emitted.join("\n")).toBe("executed");
  });

  it("refuses to execute a paid draft that lost its logo, in the spec's words, and keeps it paid", async () => {
    const { id, input } = await paidDraft(1);
    const edited = await call("PUT", `/api/draft/${id}`, {
      ...input,
      tokenInfo: { ...input.tokenInfo, image: "" },
    });
    expect(edited.status).toBe(200);
    const refused = await call("POST", `/api/draft/${id}/execute`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("Please upload a logo");
    expect(((await call("GET", `/api/draft/${id}`)).body.draft as Draft).status).toBe("paid");
  });

  it("plans an unsaved launch for the create page: the sniper held back, refusing one not in the list", async () => {
    const wallets = [newWallet(), newWallet()].map((w) => ({
      address: w.address,
      buyValue: "0.5",
    }));
    const body = {
      deployerAddress: newWallet().address,
      creatorBuy: "0.1",
      tip: "0.001",
      wallets,
      delaySnipeAddress: wallets[0]?.address,
    };
    const answer = await call("POST", "/api/bundle/plan", body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const plan = answer.body.plan as LaunchPlan;
    expect(plan.wallets.map((w) => [w.delayed, w.bundle])).toEqual([
      [true, null],
      [false, 0],
    ]);
    expect(plan.totals).toMatchObject({
      bundleBuys: "0.5",
      delayedBuy: "0.5",
      launchFeePaid: false,
    });
    expect(plan.costs.creationFee).toBe("0.01");
    const stranger = await call("POST", "/api/bundle/plan", {
      ...body,
      delaySnipeAddress: newWallet().address,
    });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error).toBe("Address must be one of the imported wallet addresses");
  });

  it("runs the same engine from an access-key-encrypted bundle payload", async () => {
    const { id, input } = await paidDraft(1);
    await setBalance(input.deployerWallet.address, parseEther("1"));
    for (const w of input.walletConfig.wallets) await setBalance(w.address, parseEther("0.2"));
    const bad = await call("POST", "/api/bundle/execute", {
      data: sealAccessKeyPayload(ctx.otherKey, JSON.stringify({ draftId: id })),
    });
    expect(bad.status).toBe(400);
    const foreign = await call(
      "POST",
      "/api/bundle/execute",
      { data: sealAccessKeyPayload(ctx.otherKey, JSON.stringify({ draftId: id })) },
      ctx.otherKey,
    );
    expect(foreign.status).toBe(404);
    const ok = await call("POST", "/api/bundle/execute", {
      data: sealAccessKeyPayload(ctx.key, JSON.stringify({ draftId: id })),
    });
    expect(ok.status).toBe(200);
    await ctx.app.launches.idle();
    expect(((await call("GET", `/api/draft/${id}`)).body.draft as Draft).status).toBe("executed");
  });

  it("reads balances in one call", async () => {
    const a = newWallet().address;
    await setBalance(a, parseEther("1.5"));
    const answer = await call("POST", "/api/wallets/balances", {
      addresses: [a, newWallet().address],
    });
    expect(answer.body.balances).toEqual([
      { address: a, balance: "1.5" },
      expect.objectContaining({ balance: "0" }),
    ]);
  });
});
