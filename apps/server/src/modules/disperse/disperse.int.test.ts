import { WALLETS_PER_CHAIN } from "@bundler/chain";
import { type Dispersal, QUOTAS } from "@bundler/shared";
import { eq, sql } from "drizzle-orm";
import { type Address, createWalletClient, formatEther, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { dispersalLegs, dispersals } from "../../db/schema.ts";
import type { ChainContext } from "../../lib/chain-context.ts";
import type { LocalChain } from "../../lib/local-chain.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { contractPayerOn, forwarderOn } from "../../test/forwarder.ts";
import { rowCounts } from "../../test/row-counts.ts";
import { accountFor, readDispersal } from "./dispersal-ledger.test-support.ts";
import { DisperseRepository } from "./disperse.repository.ts";

let testChain: TestChain;
let local: LocalChain;
let chain: ChainContext;
let app: TestApp;
let key: string;
let otherKey: string;
const masterKey = Buffer.alloc(32, 9);

const rpc = (method: string, params: unknown[]) => testChain.rpc(method, params);

beforeAll(async () => {
  testChain = await startTestChain(masterKey);
  ({ local, chain } = testChain);
  app = await createTestApp({ chain, masterKey });
  key = await app.auth.mintKey("user");
  otherKey = await app.auth.mintKey("user");
});
afterAll(async () => {
  await app?.close();
  await testChain?.stop();
});

const call = async (method: "GET" | "POST", url: string, payload?: unknown, as = key) => {
  const response = await app.server.inject({
    method,
    url,
    headers: { "x-auth-key": as },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> };
};

const fresh = () => privateKeyToAccount(generatePrivateKey()).address;
const balance = (address: string) => chain.client.getBalance({ address: address as Address });

/** A funded stranger who pays dispersals; answers what each payment cost in gas. */
const payer = async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  await rpc("anvil_setBalance", [account.address, `0x${parseEther("1000").toString(16)}`]);
  const wallet = createWalletClient({ account, transport: http(local.rpcUrl) });
  const pay = async (to: string, value: bigint) => {
    const hash = await wallet.sendTransaction({ chain: null, to: to as Address, value });
    await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
    return hash;
  };
  return { address: account.address, pay };
};

const create = async (wallets: string[], amounts: string[], antiBubblemaps: boolean) => {
  const created = await call("POST", "/api/wallets/disperse", { wallets, amounts, antiBubblemaps });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body as unknown as Dispersal;
};

const status = async (id: string) =>
  (await call("GET", `/api/wallets/disperse/status?dispersalId=${id}`))
    .body as unknown as Dispersal;

/** Ticks the engine once per block until `done` holds (or fails the test after `blocks`). */
const tickUntil = async (done: () => Promise<boolean>, blocks = 40) => {
  const engine = app.disperseEngine;
  if (!engine) throw new Error("no engine");
  let last = await chain.client.getBlockNumber();
  for (let i = 0; i < blocks * 10; i++) {
    await engine.tick();
    if (await done()) return;
    while ((await chain.client.getBlockNumber()) === last)
      await new Promise((r) => setTimeout(r, 100));
    last = await chain.client.getBlockNumber();
  }
  throw new Error("the dispersal did not get there in time");
};

const untilStatus = (id: string, ...wanted: Dispersal["status"][]) =>
  tickUntil(async () => wanted.includes((await status(id)).status));

const ledger = (receiver: string) => readDispersal(app.database.db, receiver);

/** Paid in = delivered + gas of every mined transfer + returns + refunds, to the wei. */
const expectConservation = async (receiver: string, paidIn: bigint) => {
  const account = await accountFor(app.database.db, chain.client, receiver);
  expect(account.total).toBe(paidIn);
};

const expectRouteEmpty = async (receiver: string) => {
  const account = await accountFor(app.database.db, chain.client, receiver);
  expect(account.routeLeft).toBe(0n);
  return account.routeWallets;
};

describe("creating a dispersal", () => {
  it("stores the receiver's key before answering and asks for the amounts plus the exact gas", async () => {
    const wallets = [fresh(), fresh()];
    const created = await create(wallets, ["0.1", "0.25"], true);
    expect(await app.vault.find(created.receiver, "dispersal")).toMatch(/^0x[0-9a-f]{64}$/);
    const { fee } = await ledger(created.receiver);
    // 11 transfers per chain with anti bubblemaps, each paying its own gas.
    expect(parseEther(created.amount)).toBe(parseEther("0.35") + 22n * fee);
    expect(created).toMatchObject({
      dispersalId: created.receiver,
      status: "pending",
      antiBubblemaps: true,
      expiresIn: 30,
      funder: null,
    });
    expect(created.chains).toEqual([
      { finalWallet: wallets[0], amount: "0.1", currentHop: 0, completed: false, failed: false },
      { finalWallet: wallets[1], amount: "0.25", currentHop: 0, completed: false, failed: false },
    ]);
  });

  it("stores every chain's intermediate wallets with the dispersal, before it is funded", async () => {
    const created = await create([fresh(), fresh(), fresh()], ["0.1", "0.2", "0.3"], true);
    const { legs } = await ledger(created.receiver);
    expect(legs).toHaveLength(3);
    const wallets = legs.flatMap((leg) => leg.wallets ?? []);
    expect(wallets).toHaveLength(3 * WALLETS_PER_CHAIN);
    expect(new Set(wallets.map((w) => w.toLowerCase())).size).toBe(wallets.length);
    for (const wallet of wallets)
      expect(await app.vault.find(wallet, "dispersal")).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("makes no intermediate wallets for a direct dispersal", async () => {
    const created = await create([fresh()], ["0.1"], false);
    const { legs } = await ledger(created.receiver);
    expect(legs.map((leg) => leg.wallets)).toEqual([null]);
  });

  it.each([
    [{ wallets: ["0x123"], amounts: ["1"] }, "Invalid address format"],
    [{ wallets: [fresh()], amounts: ["-1"] }, "must be a BNB amount"],
    [{ wallets: [fresh()], amounts: ["0.0000000000000000001"] }, "must be a BNB amount"],
    [{ wallets: [fresh()], amounts: ["0"] }, "must be above 0"],
    [{ wallets: [fresh(), fresh()], amounts: ["1"] }, "2 wallets but 1 amounts"],
    [{ wallets: [], amounts: [] }, "Please add some wallets."],
    [
      { wallets: Array.from({ length: 501 }, fresh), amounts: Array(501).fill("0.01") },
      "At most 500 wallets",
    ],
  ])("refuses %j with a clear error and creates nothing", async (body, message) => {
    const before = await app.database.db.select({ n: sql<number>`count(*)::int` }).from(dispersals);
    const answer = await call("POST", "/api/wallets/disperse", body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain(message);
    const after = await app.database.db.select({ n: sql<number>`count(*)::int` }).from(dispersals);
    expect(after).toEqual(before);
  });

  it("refuses an amount of a billion BNB or more with 400, storing no key and no dispersal", async () => {
    const before = await rowCounts(app.database.db);
    const answer = await call("POST", "/api/wallets/disperse", {
      wallets: [fresh(), fresh()],
      amounts: ["0.1", `1${"0".repeat(80)}`],
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      success: false,
      error: "amounts.1: must be a BNB amount below 1,000,000,000",
    });
    expect(await rowCounts(app.database.db)).toEqual(before);
  });

  it("stores the receiver's key only together with its dispersal", async () => {
    const before = await rowCounts(app.database.db);
    const store = app.vault.store.bind(app.vault);
    const spy = vi.spyOn(app.vault, "store").mockImplementationOnce(async (...args) => {
      await store(...args);
      throw new Error("connection lost");
    });
    const answer = await call("POST", "/api/wallets/disperse", {
      wallets: [fresh()],
      amounts: ["0.1"],
    });
    spy.mockRestore();
    expect(answer.status).toBe(500);
    expect(await rowCounts(app.database.db)).toEqual(before);
  });

  it("refuses a wallet listed twice", async () => {
    const twice = fresh();
    const answer = await call("POST", "/api/wallets/disperse", {
      wallets: [twice, twice.toLowerCase()],
      amounts: ["0.1", "0.2"],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain("listed twice (rows 1 and 2)");
  });

  it("shows and cancels a dispersal only for its owner", async () => {
    const created = await create([fresh()], ["0.1"], false);
    const stranger = await call(
      "GET",
      `/api/wallets/disperse/status?dispersalId=${created.receiver}`,
      undefined,
      otherKey,
    );
    expect(stranger.status).toBe(404);
    const cancel = await call(
      "POST",
      "/api/wallets/disperse/cancel",
      { dispersalId: created.receiver },
      otherKey,
    );
    expect(cancel.status).toBe(404);
    expect((await call("GET", "/api/wallets/disperse/status?dispersalId=nope")).status).toBe(404);
    expect((await status(created.receiver)).status).toBe("pending");
  });
});

describe("the dispersals in progress quota", () => {
  it("refuses a sixth dispersal in progress with 409, saying what to do, and writes nothing", async () => {
    expect(QUOTAS.activeDispersals).toBe(5);
    const owner = await app.auth.mintKey("user");
    const body = () => ({ wallets: [fresh()], amounts: ["0.1"], antiBubblemaps: false });
    const created: string[] = [];
    for (let i = 0; i < QUOTAS.activeDispersals; i++) {
      const answer = await call("POST", "/api/wallets/disperse", body(), owner);
      expect(answer.status).toBe(200);
      created.push(answer.body.dispersalId as string);
    }
    const before = await rowCounts(app.database.db);
    const refused = await call("POST", "/api/wallets/disperse", body(), owner);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      success: false,
      error:
        "You already have 5 dispersals in progress, the most one key may keep: fund or cancel a pending one, or wait until one finishes, then try again",
    });
    expect(await rowCounts(app.database.db)).toEqual(before);

    const cancel = { dispersalId: created[0] };
    expect((await call("POST", "/api/wallets/disperse/cancel", cancel, owner)).status).toBe(200);
    expect((await call("POST", "/api/wallets/disperse", body(), owner)).status).toBe(200);
  });
});

describe("dispersing", () => {
  it.each([
    [3, false],
    [3, true],
    [50, false],
    [50, true],
  ])(
    "pays %i wallets exactly (anti bubblemaps %s) and leaves every route wallet at zero",
    async (count, anti) => {
      const emitted = vi.spyOn(app.realtime, "emitToUser");
      const wallets = Array.from({ length: count }, fresh);
      const amounts = wallets.map((_, i) => `0.0${(i % 9) + 1}${i}`);
      const created = await create(wallets, amounts, anti);
      const { address: funder, pay } = await payer();
      const paid = parseEther(created.amount);
      await pay(created.receiver, paid);
      await untilStatus(created.receiver, "completed");

      const done = await status(created.receiver);
      expect(done.funder).toBe(funder);
      expect(done.chains.every((c) => c.completed && !c.failed)).toBe(true);
      expect(done.chains.every((c) => c.currentHop === (anti ? 9 : 0))).toBe(true);
      const finals = await Promise.all(wallets.map(balance));
      expect(finals).toEqual(amounts.map((a) => parseEther(a)));
      expect(await balance(created.receiver)).toBe(0n);
      const route = await expectRouteEmpty(created.receiver);
      expect(route).toHaveLength(anti ? count * 10 : 0);
      await expectConservation(created.receiver, paid);

      const lines = emitted.mock.calls.map(([, kind, payload]) => `${kind} ${payload.message}`);
      expect(lines.some((l) => /^dispersal_status .*0x[0-9a-f]{64}/.test(l))).toBe(true);
      expect(lines.at(-1)).toContain("Dispersal completed");
      emitted.mockRestore();
    },
  );

  it("moves each chain at most one transfer per block", async () => {
    const created = await create([fresh(), fresh()], ["0.01", "0.02"], true);
    const { pay } = await payer();
    await pay(created.receiver, parseEther(created.amount));
    await untilStatus(created.receiver, "completed");
    const { transfers } = await ledger(created.receiver);
    for (const leg of [0, 1]) {
      const blocks = transfers
        .filter((t) => t.leg === leg)
        .sort((a, b) => (a.step ?? 0) - (b.step ?? 0))
        .map((t) => t.blockNumber ?? 0n);
      expect(blocks).toHaveLength(11);
      for (let i = 1; i < blocks.length; i++)
        expect(blocks[i] as bigint).toBeGreaterThan(blocks[i - 1] as bigint);
    }
  });
});

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
    const payer = await contractPayerOn(testChain, await forwarderOn(testChain));
    await payer.pay(created.receiver as Address, parseEther(created.amount));
    await untilStatus(created.receiver, "completed");
    expect(await balance(destination)).toBe(parseEther("0.01"));
    expect(await balance(created.receiver)).toBe(0n);
    expect((await status(created.receiver)).refunds).toEqual([]);
  });

  for (const order of ["before it", "after it had funded the dispersal"] as const)
    it(`refunds in full a plain transfer that came ${order}`, async () => {
      const created = await create([fresh()], ["0.01"], false);
      const contract = await contractPayerOn(testChain, await forwarderOn(testChain));
      const { address: plainPayer, pay } = await payer();
      const extra = parseEther("0.004");
      if (order === "before it") {
        await pay(created.receiver, extra);
        await app.disperseEngine?.tick();
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
    await app.disperseEngine?.tick();
    expect((await status(created.receiver)).status).toBe("pending");
    await app.database.db
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
    await app.database.db
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

describe("a chain's intermediate wallets", () => {
  it("are set once: a second pass setting them keeps the first pass's, and answers them", async () => {
    const destination = privateKeyToAccount(generatePrivateKey()).address;
    const created = await create([destination], ["0.01"], true);
    const repo = new DisperseRepository(app.database.db);
    const [row] = await app.database.db
      .select({ id: dispersals.id })
      .from(dispersals)
      .where(eq(dispersals.receiver, created.receiver));
    const id = row?.id as string;
    // As a dispersal created before chains got their wallets at creation.
    await app.database.db
      .update(dispersalLegs)
      .set({ wallets: null })
      .where(eq(dispersalLegs.dispersalId, id));
    const first = [["0x1111111111111111111111111111111111111111"]];
    const second = [["0x2222222222222222222222222222222222222222"]];
    expect(await repo.setLegWallets(id, first)).toEqual(first);
    expect(await repo.setLegWallets(id, second)).toEqual(first);
    const [leg] = await app.database.db
      .select()
      .from(dispersalLegs)
      .where(eq(dispersalLegs.dispersalId, id));
    expect(leg?.wallets).toEqual(first[0]);
  });
});
