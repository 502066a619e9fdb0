import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { getFreePort, profiles } from "@bundler/chain";
import type { Draft } from "@bundler/shared";
import { eq } from "drizzle-orm";
import { type Address, createWalletClient, erc20Abi, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { chainSends, delayedBuys, drafts as draftsTable } from "../../db/schema.ts";
import { type ChainContext, localChainContext } from "../../lib/chain-context.ts";
import { sealAccessKeyPayload } from "../../lib/envelope.ts";
import { type LocalChain, startLocalChain } from "../../lib/local-chain.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { PaymentRepository } from "../drafts/payment.repository.ts";
import { PaymentWatcher } from "../drafts/payment.watcher.ts";
import { LaunchRepository } from "./launch.repository.ts";
import { LaunchService } from "./launch.service.ts";

let dataDir: string;
let local: LocalChain;
let chain: ChainContext;
let app: TestApp;
let key: string;
let otherKey: string;
let userId: string;
const treasury = privateKeyToAccount(generatePrivateKey()).address;
const masterKey = Buffer.alloc(32, 7);
const FEE = parseEther("0.01");

const rpc = (method: string, params: unknown[]) =>
  fetch(local.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
const setBalance = (address: Address, value: bigint) =>
  rpc("anvil_setBalance", [address, `0x${value.toString(16)}`]);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "lb-launch-"));
  local = await startLocalChain({
    dataDir,
    anvilPort: await getFreePort(),
    blockTime: 1,
    chainId: profiles.local.chainId,
    masterKey,
    databaseExisted: false,
    builderMaxTxs: 50,
    builderMinTip: parseEther("0.0005"),
  });
  chain = localChainContext(profiles.local, local, 50);
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
  await local?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = async (
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  payload?: unknown,
  as = key,
) => {
  const response = await app.server.inject({
    method,
    url,
    headers: { "x-auth-key": as },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};

const wallet = () => {
  const privateKey = generatePrivateKey();
  return { address: privateKeyToAccount(privateKey).address, privateKey };
};

type ExtraConfig = (wallets: Array<{ address: Address }>) => Record<string, unknown>;

const newDraft = async (walletCount = 3, extraConfig: ExtraConfig = () => ({})) => {
  const wallets = Array.from({ length: walletCount }, (_, i) => ({
    ...wallet(),
    buyValue: `0.0${i + 1}`,
  }));
  const input = {
    tokenInfo: {
      name: "Bundle Moon",
      symbol: "BMOON",
      description: "launched by the test",
      image: "data:image/png;base64,AAAA",
      preSale: "0.05",
    },
    deployerWallet: wallet(),
    walletConfig: {
      wallets,
      tip: "0.001",
      ...extraConfig(wallets),
    },
  };
  const { body } = await call("POST", "/api/draft/create", input);
  return { id: body.draftId as string, input };
};

const payer = async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  await setBalance(account.address, parseEther("10"));
  const wallet = createWalletClient({ account, transport: http(local.rpcUrl) });
  const pay = async (to: Address, value: bigint) => {
    const hash = await wallet.sendTransaction({ chain: null, to, value });
    const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
    return receipt.gasUsed * receipt.effectiveGasPrice;
  };
  return { account, pay };
};

const watcher = (onPaid?: () => void) =>
  new PaymentWatcher(new PaymentRepository(app.database.db), app.vault, chain, {
    treasury,
    ...(onPaid ? { onPaid } : {}),
  });

const balance = (address: Address) => chain.client.getBalance({ address });

describe("launch fee payment", () => {
  it("credits a payment exactly once across concurrent ticks and a restart, and sweeps the fee", async () => {
    const { id } = await newDraft();
    const started = await call("POST", `/api/draft/${id}/payment`);
    expect(started.status).toBe(200);
    expect(started.body.paymentAmount).toBe("0.01");
    const address = started.body.paymentAddress as Address;
    // Resuming answers the same address.
    expect((await call("POST", `/api/draft/${id}/payment`)).body.paymentAddress).toBe(address);
    expect((await call("GET", `/api/draft/${id}/payment/status`)).body.isPaid).toBe(false);
    expect(
      (await call("PUT", `/api/draft/${id}`, (await call("GET", `/api/draft/${id}`)).body.draft))
        .status,
    ).toBe(409);

    const { pay } = await payer();
    await pay(address, FEE);
    let credited = 0;
    const first = watcher(() => credited++);
    await Promise.all([first.tick(), first.tick()]);
    await watcher(() => credited++).tick(); // a "restarted" process
    expect(credited).toBe(1);
    const status = await call("GET", `/api/draft/${id}/payment/status`);
    expect(status.body).toMatchObject({ isPaid: true, status: "paid" });
    expect(await balance(treasury)).toBeGreaterThan(FEE - parseEther("0.001"));
    expect(await balance(address)).toBeLessThan(parseEther("0.0001"));
  });

  it("refunds a payment that arrives after cancellation, minus gas", async () => {
    const { id } = await newDraft();
    const address = (await call("POST", `/api/draft/${id}/payment`)).body.paymentAddress as Address;
    expect((await call("POST", `/api/draft/${id}/payment/cancel`)).status).toBe(200);
    expect(((await call("GET", `/api/draft/${id}`)).body.draft as Draft).status).toBe("draft");
    const { account, pay } = await payer();
    const before = await balance(account.address);
    const payerGas = await pay(address, FEE);
    await watcher().tick();
    const lost = before - (await balance(account.address)) - payerGas;
    expect(lost).toBeGreaterThan(0n);
    expect(lost).toBeLessThanOrEqual(21_000n * 10n ** 10n); // one transfer's gas at most
    const draft = (await call("GET", `/api/draft/${id}`)).body.draft as Draft;
    expect(draft.status).toBe("draft");
    expect(draft.refunds).toHaveLength(1);
    expect(draft.refunds[0]).toMatchObject({ to: account.address, status: "sent" });
    // A second watcher (restart) never refunds twice.
    await watcher().tick();
    const sends = await app.database.db.select().from(chainSends).where(eq(chainSends.draftId, id));
    expect(sends.filter((s) => s.status !== "failed")).toHaveLength(1);
  });

  it("refunds a payment that arrives after expiry", async () => {
    const { id } = await newDraft();
    const address = (await call("POST", `/api/draft/${id}/payment`)).body.paymentAddress as Address;
    const { payments } = await import("../../db/schema.ts");
    await app.database.db
      .update(payments)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(payments.address, address));
    await watcher().tick();
    expect(((await call("GET", `/api/draft/${id}`)).body.draft as Draft).status).toBe("draft");
    const { account, pay } = await payer();
    const before = await balance(account.address);
    const payerGas = await pay(address, FEE);
    await watcher().tick();
    const lost = before - (await balance(account.address)) - payerGas;
    expect(lost > 0n && lost <= 21_000n * 10n ** 10n).toBe(true);
  });

  it("credits an overpayment and refunds the excess to its sender", async () => {
    const { id } = await newDraft();
    const address = (await call("POST", `/api/draft/${id}/payment`)).body.paymentAddress as Address;
    const treasuryBefore = await balance(treasury);
    const { account, pay } = await payer();
    const before = await balance(account.address);
    const payerGas = await pay(address, FEE * 3n);
    await watcher().tick();
    expect(((await call("GET", `/api/draft/${id}`)).body.draft as Draft).status).toBe("paid");
    const spent = before - (await balance(account.address)) - payerGas;
    // The payer is out the fee plus one refund's gas.
    expect(spent - FEE > 0n && spent - FEE <= 21_000n * 10n ** 10n).toBe(true);
    const draft = (await call("GET", `/api/draft/${id}`)).body.draft as Draft;
    expect(draft.refunds[0]?.reason).toMatch(/more than/);
    const swept = (await balance(treasury)) - treasuryBefore;
    expect(swept > FEE - parseEther("0.001") && swept < FEE).toBe(true);
  });
});

describe("execution", () => {
  const paidDraft = async (walletCount = 3, extraConfig: ExtraConfig = () => ({})) => {
    const draft = await newDraft(walletCount, extraConfig);
    const address = (await call("POST", `/api/draft/${draft.id}/payment`)).body
      .paymentAddress as Address;
    await (await payer()).pay(address, FEE);
    await watcher().tick();
    return draft;
  };

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

  const listed = async () =>
    ((await call("GET", "/api/draft/list")).body.drafts as Draft[]).map((d) => d._id);

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
    const restarted = () =>
      new LaunchService(
        new LaunchRepository(app.database.db),
        app.drafts,
        app.vault,
        chain,
        (_u, m) => {
          emitted.push(m);
        },
      );
    const [a, b] = [restarted(), restarted()];
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
    const c = restarted();
    await c.recover();
    await c.delayedIdle();
    expect(emitted.filter((m) => m.includes("delayed buy"))).toHaveLength(1);
  });

  it("reads balances in one call", async () => {
    const a = wallet().address;
    await setBalance(a, parseEther("1.5"));
    const answer = await call("POST", "/api/wallets/balances", {
      addresses: [a, wallet().address],
    });
    expect(answer.body.balances).toEqual([
      { address: a, balance: "1.5" },
      expect.objectContaining({ balance: "0" }),
    ]);
  });
});
