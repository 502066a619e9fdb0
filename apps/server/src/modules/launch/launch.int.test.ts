import type { Draft, DraftSummary, LaunchPlan } from "@bundler/shared";
import { eq } from "drizzle-orm";
import { type Address, erc20Abi, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { delayedBuys, drafts as draftsTable } from "../../db/schema.ts";
import type { ChainContext } from "../../lib/chain-context.ts";
import { sealAccessKeyPayload } from "../../lib/envelope.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import {
  apiCaller,
  draftInput,
  type ExtraConfig,
  newWallet,
  payerOn,
} from "../../test/drafts-api.ts";
import { freshWatcher } from "../../test/payment-watcher.ts";

let testChain: TestChain;
let chain: ChainContext;
let app: TestApp;
let key: string;
let otherKey: string;
let userId: string;
const treasury = privateKeyToAccount(generatePrivateKey()).address;
const masterKey = Buffer.alloc(32, 7);
const FEE = parseEther("0.01");

const rpc = (method: string, params: unknown[]) => testChain.rpc(method, params);
const setBalance = (address: Address, value: bigint) =>
  rpc("anvil_setBalance", [address, `0x${value.toString(16)}`]);

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
  otherKey = await app.auth.mintKey("user");
  userId = (await app.auth.authenticate(key))?.id ?? "";
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});

const call = apiCaller(
  () => app,
  () => key,
);

/** The terminal lines `run` sends to the user. */
const captureTerminal = async (run: () => Promise<void>): Promise<string[]> => {
  const emitted: string[] = [];
  const spy = vi
    .spyOn(app.realtime, "emitToUser")
    .mockImplementation(async (_user, _kind, { message }) => {
      emitted.push(message);
    });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return emitted;
};

const newDraft = async (walletCount = 3, extraConfig: ExtraConfig = () => ({})) => {
  const input = draftInput(walletCount, extraConfig);
  const { body } = await call("POST", "/api/draft/create", input);
  return { id: body.draftId as string, input };
};

const watcher = () => freshWatcher(app, chain, treasury);

/** A draft whose launch fee is paid (the watcher credited it). */
const paidDraft = async (walletCount = 3, extraConfig: ExtraConfig = () => ({})) => {
  const draft = await newDraft(walletCount, extraConfig);
  const address = (await call("POST", `/api/draft/${draft.id}/payment`)).body
    .paymentAddress as Address;
  await (await payerOn(testChain)).pay(address, FEE);
  await watcher().tick();
  return draft;
};

describe("execution", () => {
  it("fails with a reason and keeps the draft paid, then launches with every buy in the create's block", async () => {
    const emitted: string[] = [];
    const spy = vi
      .spyOn(app.realtime, "emitToUser")
      .mockImplementation(async (_user, _kind, { message }) => {
        emitted.push(message);
      });
    const { id, input } = await paidDraft(3);
    expect((await call("POST", `/api/draft/${id}/execute`, undefined, otherKey)).status).toBe(404);

    // Nothing funded yet: the launch fails and says which wallet is short.
    const first = await call("POST", `/api/draft/${id}/execute`);
    expect(first.status).toBe(200);
    await app.launches.idle();
    expect(
      emitted.some((m) =>
        /^FAILED launch: insufficient balance: wallet 0x[0-9a-fA-F]{40} needs/.test(m),
      ),
      emitted.join("\n"),
    ).toBe(true);
    expect(((await call("GET", `/api/draft/${id}`)).body.draft as Draft).status).toBe("paid");

    await setBalance(input.deployerWallet.address, parseEther("1"));
    for (const w of input.walletConfig.wallets) await setBalance(w.address, parseEther("0.2"));
    emitted.length = 0;
    const started = await call("POST", `/api/draft/${id}/execute`);
    expect(started.status).toBe(200);
    const twice = await call("POST", `/api/draft/${id}/execute`);
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatch(/already being launched/);
    await app.launches.idle();
    expect(spy).toHaveBeenCalledWith(userId, "launch_status", expect.anything());
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
    expect(await chain.client.getCode({ address: launch.tokenAddress as Address })).not.toBe("0x");
    const block = await chain.client.getBlock({
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
      const held = await chain.client.readContract({
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
      await app.launches.idle();
    });
    const draft = (await call("GET", `/api/draft/${id}`)).body.draft as Draft;
    expect(draft.status, emitted.join("\n")).toBe("executed");
    const token = draft.launch?.tokenAddress as Address;
    const held = (address: string) =>
      chain.client.readContract({
        address: token,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [address as Address],
      });
    for (const wallet of plan.wallets)
      expect(await held(wallet.address)).toBe(BigInt(wallet.tokenAmount));
    expect(await held(plan.creator.address as string)).toBe(BigInt(plan.creator.tokenAmount));
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
      data: sealAccessKeyPayload(otherKey, JSON.stringify({ draftId: id })),
    });
    expect(bad.status).toBe(400);
    const foreign = await call(
      "POST",
      "/api/bundle/execute",
      { data: sealAccessKeyPayload(otherKey, JSON.stringify({ draftId: id })) },
      otherKey,
    );
    expect(foreign.status).toBe(404);
    const ok = await call("POST", "/api/bundle/execute", {
      data: sealAccessKeyPayload(key, JSON.stringify({ draftId: id })),
    });
    expect(ok.status).toBe(200);
    await app.launches.idle();
    expect(((await call("GET", `/api/draft/${id}`)).body.draft as Draft).status).toBe("executed");
  });

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
      .spyOn(app.realtime, "emitToUser")
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
    await app.launches.idle();
    expect(emitted).toContain(`Delayed buy by ${snipe} scheduled in 2 s`);
    await app.launches.delayedIdle();
    spy.mockRestore();

    const launched = (await call("GET", `/api/draft/${id}`)).body.draft as Draft;
    expect(launched.status, emitted.join("\n")).toBe("executed");
    const launch = launched.launch;
    if (!launch) throw new Error("no launch recorded");
    expect(launch.totalWallets).toBe(2);
    expect(launch.atomicWallets).toBe(2);
    const block = await chain.client.getBlock({
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
    const receipt = await chain.client.getTransactionReceipt({ hash: success as `0x${string}` });
    expect(receipt.from.toLowerCase()).toBe(snipe.toLowerCase());
    expect(receipt.blockNumber).toBeGreaterThan(BigInt(launch.blockNumber));
    const held = await chain.client.readContract({
      address: launch.tokenAddress as Address,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [snipe],
    });
    expect(held).toBeGreaterThan(0n);
    const [row] = await app.database.db
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
    await app.database.db
      .update(draftsTable)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(draftsTable.id, id));
    await app.database.db
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
    await app.launches.idle();
    // The process "dies" before the 600 s are up; the row is overdue when the next one starts.
    app.launches.stop();
    await app.database.db
      .update(delayedBuys)
      .set({ dueAt: new Date(Date.now() - 5000) })
      .where(eq(delayedBuys.draftId, id));
    expect(await chain.client.getTransactionCount({ address: snipe })).toBe(0);

    const emitted: string[] = [];
    const restarted = async () =>
      (
        await app.restarted((_u, m) => {
          emitted.push(m);
        })
      ).launches;
    const [a, b] = [await restarted(), await restarted()];
    await Promise.all([a.recover(), b.recover()]);
    await Promise.all([a.delayedIdle(), b.delayedIdle()]);
    expect(emitted.filter((m) => m.startsWith(`SUCCESS delayed buy by ${snipe}: 0x`))).toHaveLength(
      1,
    );
    expect(await chain.client.getTransactionCount({ address: snipe })).toBe(1);
    const [row] = await app.database.db
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
