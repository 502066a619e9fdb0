import { TRANSFER_GAS } from "@bundler/chain";
import { type Bumper, type BumperCosts, bumperPlan } from "@bundler/shared";
import { eq, sql } from "drizzle-orm";
import { type Address, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { users } from "../../db/schema.ts";
import { hashAccessKey } from "../../lib/crypto.ts";
import { BumperRepository, type BumperRow } from "./bumper.repository.ts";
import { useBumperTestbed } from "./bumper.test-support.ts";
import { BUMP_GAS, GAS_ROUNDING_WEI } from "./bumper-costs.ts";

const { bed, call, launch, bumpUntil } = useBumperTestbed(Buffer.alloc(32, 43));
const randomAddress = () => privateKeyToAccount(generatePrivateKey()).address;

/** A user of its own, and their id. */
const freshUser = async () => {
  const userKey = await bed.app.auth.mintKey("user");
  const [row] = await bed.app.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.keyHash, hashAccessKey(userKey)));
  if (!row) throw new Error("the minted key has no user");
  return { key: userKey, id: row.id };
};

/** Stores bumpers of `ownerId` in each status (tokens nobody launched: the list only reads them). */
const storeBumpers = async (ownerId: string, statuses: BumperRow["status"][]) => {
  const repo = new BumperRepository(bed.app.database.db);
  const rows: BumperRow[] = [];
  for (const status of statuses) {
    const row = await repo.transaction((tx) =>
      repo.create(
        tx,
        {
          ownerId,
          targetToken: randomAddress(),
          intervalMinutes: 1,
          durationMinutes: 3,
          buySize: parseEther("0.01").toString(),
          totalBumps: 3,
          status,
        },
        randomAddress(),
      ),
    );
    if (!row) throw new Error("bumper not stored");
    rows.push(row);
  }
  return rows;
};

describe("the bumper's plan", () => {
  it("answers what a bump costs: the builder's tip, gas at today's price and the trading fees", async () => {
    const answer = await call("GET", "/api/bumper/costs");
    expect(answer.status).toBe(200);
    const costs = answer.body.costs as BumperCosts;
    expect(costs).toMatchObject({ tip: "0.0005", tradingFeeBps: 100, minTradingFee: "0.0001" });
    // BUMP_GAS at this chain's gas price (at least the profile's floor), rounded up to 0.0001.
    const gas = parseEther(costs.gas);
    const gasPrice = (await bed.app.transactions?.gasPrice()) ?? 0n;
    expect(gasPrice).toBeGreaterThanOrEqual(bed.testChain.chain.profile.gasPriceFloor);
    expect(gas % GAS_ROUNDING_WEI).toBe(0n);
    expect(gas).toBeGreaterThanOrEqual(BUMP_GAS * bed.testChain.chain.profile.gasPriceFloor);
    expect(gas - BUMP_GAS * gasPrice).toBeLessThan(GAS_ROUNDING_WEI);
  });

  it("completes every bump when funded with exactly the plan, tip and fees included", async () => {
    const bundle = await launch();
    const generated = await call("POST", "/api/bumper/generate", {
      targetToken: bundle.token,
      interval: 1,
      duration: 3,
      buySize: 0.01,
    });
    const bumper = generated.body.bumper as Bumper;
    const costs = (await call("GET", "/api/bumper/costs")).body.costs as BumperCosts;
    const plan = bumperPlan(parseEther("0.01"), bumper.totalBumps, costs);
    // More than SPEC §9's 0.001 BNB a bump: the tip alone is half of it.
    expect(plan.required).toBeGreaterThan(parseEther("0.013"));
    await bed.testChain.rpc("anvil_setBalance", [
      bumper.address as Address,
      `0x${plan.required.toString(16)}`,
    ]);
    expect((await call("POST", `/api/bumper/${bumper.id}/start`)).status).toBe(200);
    const done = await bumpUntil((b) => b.status !== "active", bumper.id);
    expect(done).toMatchObject({ status: "completed", bumpsCompleted: 3, stopReason: null });

    // The plan's gas covers the limits each bump was signed with, and the two transfers.
    const { rows } = await bed.app.database.db.execute(
      sql`select key, gas::text as gas from chain_txs where subject = ${bumper.id} and purpose = 'bumper-trade'`,
    );
    const perAttempt = new Map<string, bigint>();
    for (const row of rows as Array<{ key: string; gas: string }>) {
      const attempt = row.key.split(":").slice(0, 4).join(":");
      perAttempt.set(attempt, (perAttempt.get(attempt) ?? 0n) + BigInt(row.gas));
    }
    expect(perAttempt.size).toBeGreaterThanOrEqual(3);
    for (const gas of perAttempt.values())
      expect(gas + 2n * TRANSFER_GAS).toBeLessThanOrEqual(BUMP_GAS);
  });
});

describe("the buy size", () => {
  it("refuses a buy under the spec's least, 0.001 BNB, and stores nothing", async () => {
    const user = await freshUser();
    const answer = await call(
      "POST",
      "/api/bumper/generate",
      { targetToken: randomAddress(), interval: 1, duration: 3, buySize: 0.0005 },
      user.key,
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, error: "Buy size must be at least 0.001 BNB" });
    const list = await call("GET", "/api/bumper/user", undefined, user.key);
    expect(list.body.bumpers).toEqual([]);
  });
});

describe("active bumpers a user may keep", () => {
  const TOO_MANY =
    "You already have 20 active bumpers, the most one key may keep: stop or withdraw one, then try again";

  it("refuses a 21st active bumper with a 400, and takes it once one has stopped", async () => {
    const bundle = await launch();
    const user = await freshUser();
    const stored = await storeBumpers(user.id, [
      ...Array<BumperRow["status"]>(10).fill("ready"),
      ...Array<BumperRow["status"]>(10).fill("active"),
      "stopped",
      "completed",
    ]);
    const form = { targetToken: bundle.token, interval: 1, duration: 3, buySize: 0.01 };
    const refused = await call("POST", "/api/bumper/generate", form, user.key);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ success: false, error: TOO_MANY });

    const repo = new BumperRepository(bed.app.database.db);
    await repo.transition(stored[0]?.id as string, ["ready"], { status: "stopped" });
    const taken = await call("POST", "/api/bumper/generate", form, user.key);
    expect(taken.status).toBe(200);
    expect(taken.body.existingBumper).toBe(false);
  });

  it("refuses to start a stopped bumper again while 20 others are active", async () => {
    const user = await freshUser();
    const stored = await storeBumpers(user.id, [
      "stopped",
      ...Array<BumperRow["status"]>(20).fill("active"),
    ]);
    // Funded: only the quota stands in its way.
    const wallet = await new BumperRepository(bed.app.database.db).walletAt(
      stored[0]?.id as string,
      0,
    );
    await bed.testChain.rpc("anvil_setBalance", [wallet?.address as Address, "0x2386f26fc10000"]);
    const answer = await call("POST", `/api/bumper/${stored[0]?.id}/start`, undefined, user.key);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ success: false, error: TOO_MANY });
  });
});

describe("GET /api/bumper/user", () => {
  it("lists a stopped bumper under Completed, with a page of one tab and each tab's count", async () => {
    const user = await freshUser();
    const stored = await storeBumpers(user.id, [
      "ready",
      "active",
      "stopped",
      "completed",
      "stopped",
    ]);
    const completed = await call(
      "GET",
      "/api/bumper/user?tab=completed&limit=2&page=1",
      undefined,
      user.key,
    );
    expect(completed.status).toBe(200);
    expect(completed.body.counts).toEqual({ active: 2, completed: 3 });
    expect(completed.body.pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2 });
    // Newest first.
    const ids = (completed.body.bumpers as Bumper[]).map((b) => b.id);
    expect(ids).toEqual([stored[4]?.id, stored[3]?.id]);

    const next = await call(
      "GET",
      "/api/bumper/user?tab=completed&limit=2&page=2",
      undefined,
      user.key,
    );
    expect((next.body.bumpers as Bumper[]).map((b) => b.id)).toEqual([stored[2]?.id]);

    const active = await call("GET", "/api/bumper/user?tab=active", undefined, user.key);
    expect((active.body.bumpers as Bumper[]).map((b) => b.status)).toEqual(["active", "ready"]);
  });

  it("refuses a tab that is not one, saying which there are", async () => {
    const answer = await call("GET", "/api/bumper/user?tab=stopped");
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      success: false,
      error: "The tab must be active or completed",
    });
  });
});
