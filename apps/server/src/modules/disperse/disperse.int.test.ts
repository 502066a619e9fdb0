import { WALLETS_PER_CHAIN } from "@bundler/chain";
import { QUOTAS } from "@bundler/shared";
import { eq, sql } from "drizzle-orm";
import { parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it, vi } from "vitest";
import { dispersalLegs, dispersals } from "../../db/schema.ts";
import { rowCounts } from "../../test/row-counts.ts";
import { DisperseRepository } from "./disperse.repository.ts";
import { fresh, useDisperseTestbed } from "./disperse.test-support.ts";

const ctx = useDisperseTestbed();
const {
  call,
  balance,
  payer,
  create,
  status,
  untilStatus,
  ledger,
  expectConservation,
  expectRouteEmpty,
} = ctx;

describe("creating a dispersal", () => {
  it("stores the receiver's key before answering and asks for the amounts plus the exact gas", async () => {
    const wallets = [fresh(), fresh()];
    const created = await create(wallets, ["0.1", "0.25"], true);
    expect(await ctx.app.vault.find(created.receiver, "dispersal")).toMatch(/^0x[0-9a-f]{64}$/);
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
      expect(await ctx.app.vault.find(wallet, "dispersal")).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it("makes no intermediate wallets for a direct dispersal", async () => {
    const created = await create([fresh()], ["0.1"], false);
    const { legs } = await ledger(created.receiver);
    expect(legs.map((leg) => leg.wallets)).toEqual([null]);
  });

  it.each([
    [{ wallets: ["0x123"], amounts: ["1"] }, "Wallet 1 address must be an address"],
    [{ wallets: [fresh()], amounts: ["-1"] }, "must be a BNB amount"],
    [{ wallets: [fresh()], amounts: ["0.0000000000000000001"] }, "must be a BNB amount"],
    [{ wallets: [fresh()], amounts: ["0"] }, "Wallet 1 amount must be above 0"],
    [{ wallets: [fresh(), fresh()], amounts: ["1"] }, "2 wallets but 1 amounts"],
    [{ wallets: [], amounts: [] }, "Please add some wallets."],
    [
      { wallets: Array.from({ length: 501 }, fresh), amounts: Array(501).fill("0.01") },
      "At most 500 wallets",
    ],
  ])("refuses %j with a clear error and creates nothing", async (body, message) => {
    const before = await ctx.app.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(dispersals);
    const answer = await call("POST", "/api/wallets/disperse", body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain(message);
    const after = await ctx.app.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(dispersals);
    expect(after).toEqual(before);
  });

  it("refuses an amount of a billion BNB or more with 400, storing no key and no dispersal", async () => {
    const before = await rowCounts(ctx.app.database.db);
    const answer = await call("POST", "/api/wallets/disperse", {
      wallets: [fresh(), fresh()],
      amounts: ["0.1", `1${"0".repeat(80)}`],
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      success: false,
      error: "Wallet 2 amount must be a BNB amount below 1,000,000,000",
      field: "amounts.1",
      row: 2,
    });
    expect(await rowCounts(ctx.app.database.db)).toEqual(before);
  });

  it("stores the receiver's key only together with its dispersal", async () => {
    const before = await rowCounts(ctx.app.database.db);
    const store = ctx.app.vault.store.bind(ctx.app.vault);
    const spy = vi.spyOn(ctx.app.vault, "store").mockImplementationOnce(async (...args) => {
      await store(...args);
      throw new Error("connection lost");
    });
    const answer = await call("POST", "/api/wallets/disperse", {
      wallets: [fresh()],
      amounts: ["0.1"],
    });
    spy.mockRestore();
    expect(answer.status).toBe(500);
    expect(await rowCounts(ctx.app.database.db)).toEqual(before);
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
      ctx.otherKey,
    );
    expect(stranger.status).toBe(404);
    const cancel = await call(
      "POST",
      "/api/wallets/disperse/cancel",
      { dispersalId: created.receiver },
      ctx.otherKey,
    );
    expect(cancel.status).toBe(404);
    expect((await call("GET", "/api/wallets/disperse/status?dispersalId=nope")).status).toBe(404);
    expect((await status(created.receiver)).status).toBe("pending");
  });
});

describe("the dispersals in progress quota", () => {
  it("refuses a sixth dispersal in progress with 409, saying what to do, and writes nothing", async () => {
    expect(QUOTAS.activeDispersals).toBe(5);
    const owner = await ctx.app.auth.mintKey("user");
    const body = () => ({ wallets: [fresh()], amounts: ["0.1"], antiBubblemaps: false });
    const created: string[] = [];
    for (let i = 0; i < QUOTAS.activeDispersals; i++) {
      const answer = await call("POST", "/api/wallets/disperse", body(), owner);
      expect(answer.status).toBe(200);
      created.push(answer.body.dispersalId as string);
    }
    const before = await rowCounts(ctx.app.database.db);
    const refused = await call("POST", "/api/wallets/disperse", body(), owner);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      success: false,
      error:
        "You already have 5 dispersals in progress, the most one key may keep: fund or cancel a pending one, or wait until one finishes, then try again",
    });
    expect(await rowCounts(ctx.app.database.db)).toEqual(before);

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
      const emitted = vi.spyOn(ctx.app.realtime, "emitToUser");
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

describe("a chain's intermediate wallets", () => {
  it("are set once: a second pass setting them keeps the first pass's, and answers them", async () => {
    const destination = privateKeyToAccount(generatePrivateKey()).address;
    const created = await create([destination], ["0.01"], true);
    const repo = new DisperseRepository(ctx.app.database.db);
    const [row] = await ctx.app.database.db
      .select({ id: dispersals.id })
      .from(dispersals)
      .where(eq(dispersals.receiver, created.receiver));
    const id = row?.id as string;
    // As a dispersal created before chains got their wallets at creation.
    await ctx.app.database.db
      .update(dispersalLegs)
      .set({ wallets: null })
      .where(eq(dispersalLegs.dispersalId, id));
    const first = [["0x1111111111111111111111111111111111111111"]];
    const second = [["0x2222222222222222222222222222222222222222"]];
    expect(await repo.setLegWallets(id, first)).toEqual(first);
    expect(await repo.setLegWallets(id, second)).toEqual(first);
    const [leg] = await ctx.app.database.db
      .select()
      .from(dispersalLegs)
      .where(eq(dispersalLegs.dispersalId, id));
    expect(leg?.wallets).toEqual(first[0]);
  });
});
