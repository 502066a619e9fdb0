import { DISPERSALS_PAGE_SIZE, type DispersalSummary } from "@bundler/shared";
import { formatEther, parseEther } from "viem";
import { describe, expect, it, vi } from "vitest";
import { fresh, useDisperseTestbed } from "./disperse.test-support.ts";

// The disperser's history: the list of a user's dispersals, and a dispersal's log read back.
const ctx = useDisperseTestbed();
const { call, create, payer, untilStatus } = ctx;

type ListAnswer = {
  dispersals: DispersalSummary[];
  total: number;
  page: number;
  pageSize: number;
};

const list = async (owner: string, page?: number) => {
  const answer = await call(
    "GET",
    `/api/wallets/disperse/list${page ? `?page=${page}` : ""}`,
    undefined,
    owner,
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as unknown as ListAnswer;
};

describe("the list of past dispersals", () => {
  it("lists the caller's dispersals newest first with status, total, wallet count and date, 10 a page", async () => {
    const owner = await ctx.app.auth.mintKey("user");
    const made: { id: string; wallets: number; total: string }[] = [];
    for (let i = 0; i < DISPERSALS_PAGE_SIZE + 1; i++) {
      const wallets = Array.from({ length: (i % 3) + 1 }, fresh);
      const amounts = wallets.map((_, n) => `0.0${n + 1}`);
      const created = await call(
        "POST",
        "/api/wallets/disperse",
        { wallets, amounts, antiBubblemaps: false },
        owner,
      );
      expect(created.status).toBe(200);
      const id = created.body.dispersalId as string;
      // Five in progress at most: each is cancelled before the next.
      await call("POST", "/api/wallets/disperse/cancel", { dispersalId: id }, owner);
      const total = amounts.reduce((sum, a) => sum + parseEther(a), 0n);
      made.push({ id, wallets: wallets.length, total: formatEther(total) });
    }
    const newestFirst = [...made].reverse();

    const first = await list(owner);
    expect(first).toMatchObject({ total: 11, page: 1, pageSize: 10 });
    expect(first.dispersals.map((d) => d.dispersalId)).toEqual(
      newestFirst.slice(0, 10).map((d) => d.id),
    );
    expect(first.dispersals[0]).toMatchObject({
      status: "cancelled",
      walletCount: newestFirst[0]?.wallets,
      total: newestFirst[0]?.total,
      antiBubblemaps: false,
    });
    const dates = first.dispersals.map((d) => Date.parse(d.createdAt));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));

    const second = await list(owner, 2);
    expect(second.dispersals.map((d) => d.dispersalId)).toEqual([made[0]?.id]);
  });

  it("lists none of another user's dispersals", async () => {
    const stranger = await ctx.app.auth.mintKey("user");
    await create([fresh()], ["0.1"], false);
    expect(await list(stranger)).toMatchObject({ dispersals: [], total: 0 });
  });

  it("refuses a page that is not a whole number from 1 up with 400", async () => {
    const answer = await call("GET", "/api/wallets/disperse/list?page=0");
    expect(answer.status).toBe(400);
  });
});

describe("a dispersal's log read back", () => {
  it("says, after it completed, what its live lines said: funding, every transfer, the outcome", async () => {
    const emitted = vi.spyOn(ctx.app.realtime, "emitToUser");
    const created = await create([fresh(), fresh()], ["0.11", "0.26"], false);
    const { pay } = await payer();
    await pay(created.receiver, parseEther(created.amount));
    await untilStatus(created.receiver, "completed");
    const live = emitted.mock.calls
      .filter(([, kind]) => kind === "dispersal_status")
      .map(([, , payload]) => (payload as { message: string }).message);
    emitted.mockRestore();

    const answer = await call("GET", `/api/wallets/disperse/log?dispersalId=${created.receiver}`);
    expect(answer.status).toBe(200);
    const lines = answer.body.lines as { at: string; message: string }[];
    // Transfers mined in one block may be told in either order.
    expect(lines.map((line) => line.message).sort()).toEqual([...live].sort());
    expect(lines[0]?.message).toMatch(/^Received \d+\.\d{4} BNB from 0x[0-9a-fA-F]{40}; sending/);
    expect(lines.filter((line) => line.message.startsWith("Sent 0.1100 BNB to "))).toHaveLength(1);
    expect(lines.at(-1)?.message).toBe("Dispersal completed: 2/2 wallets delivered");
    const times = lines.map((line) => Date.parse(line.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("answers 404 for another user's dispersal, as its status does", async () => {
    const created = await create([fresh()], ["0.1"], false);
    const answer = await call(
      "GET",
      `/api/wallets/disperse/log?dispersalId=${created.receiver}`,
      undefined,
      ctx.otherKey,
    );
    expect(answer).toEqual({ status: 404, body: { success: false, error: "Dispersal not found" } });
  });
});
