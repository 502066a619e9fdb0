import type { Bump, Bumper, BumperWallet } from "@bundler/shared";
import { sql } from "drizzle-orm";
import { type Address, type Hex, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { graduate, tokenBalance } from "../../test/bundles.ts";
import { BumperRepository, type BumperRow } from "./bumper.repository.ts";
import { BUMPER_TIP, useBumperTestbed } from "./bumper.test-support.ts";

const TIP = BUMPER_TIP;
const { bed, call, callAs, setBalance, balanceOf, launch, generate, bumpUntil } = useBumperTestbed(
  Buffer.alloc(32, 41),
);

/** Every transaction fee of the bumper's own transactions, wei. */
const feesOf = async (bumperId: string): Promise<bigint> => {
  const { rows } = await bed.app.database.db.execute(
    sql`select coalesce(sum(fee), 0)::text as fees from chain_txs where subject = ${bumperId}`,
  );
  return BigInt((rows[0] as { fees: string }).fees);
};

describe("POST /api/bumper/generate", () => {
  it("refuses a bad form with the form's own words and stores nothing", async () => {
    const before = await bed.app.database.db.execute(sql`select count(*)::int as n from bumpers`);
    const token = "0x1111111111111111111111111111111111111111";
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ targetToken: "" }, "Token address is required"],
      [{ targetToken: "0x12" }, "Invalid address format"],
      [{ interval: 0.5 }, "Interval must be at least 1 minute"],
      [{ duration: 2000 }, "Duration cannot exceed 1 day"],
      [{ duration: 1 }, "Duration must be greater than interval"],
      [{ buySize: 2 }, "Buy size cannot exceed 1 BNB"],
      [{ buySize: 0 }, "Buy size must be greater than 0"],
    ];
    for (const [change, message] of cases) {
      const answer = await call("POST", "/api/bumper/generate", {
        targetToken: token,
        interval: 1,
        duration: 3,
        buySize: 0.01,
        ...change,
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ success: false, error: message });
    }
    const after = await bed.app.database.db.execute(sql`select count(*)::int as n from bumpers`);
    expect(after.rows).toEqual(before.rows);
  });

  it("refuses a token the launchpad does not know, naming it", async () => {
    const token = privateKeyToAccount(generatePrivateKey()).address;
    const answer = await generate(token);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(`Token ${token} was not found on the launchpad`);
  });

  it("refuses an X Mode token, saying why (four-meme-ai errors.md: X Mode tokens are bought only through four.meme's signed buy)", async () => {
    const bundle = await launch();
    await bed.testChain.setTokenKind(bundle.token, { template: 0x10000n });
    const answer = await generate(bundle.token);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(
      `Token ${bundle.token} cannot be bumped: it is an X Mode token: four.meme sells it only through buys its own API signs, which this app does not make`,
    );
  });

  it("refuses a TokenManager V1 token, saying why (integration-guide §3)", async () => {
    const bundle = await launch();
    await bed.testChain.setTokenKind(bundle.token, { version: 1n });
    const answer = await generate(bundle.token);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(
      `Token ${bundle.token} cannot be bumped: it was launched on four.meme's first TokenManager (V1, before 2024-09-05), whose trades this app does not make`,
    );
  });

  it("creates a bumper with a fresh wallet whose key is stored, and answers it again for the same token", async () => {
    const bundle = await launch();
    const first = await generate(bundle.token);
    expect(first.status).toBe(200);
    expect(first.body.existingBumper).toBe(false);
    expect(first.body.message).toBe(
      "Bumper generated successfully! Send funds to the bumper address to get started.",
    );
    const bumper = first.body.bumper as Bumper;
    expect(bumper).toMatchObject({
      totalBumps: 3,
      bumpsCompleted: 0,
      status: "ready",
      balance: "0",
    });
    expect(await bed.app.vault.find(bumper.address, "bumper")).toMatch(/^0x[0-9a-f]{64}$/);

    const again = await generate(bundle.token.toLowerCase(), { duration: 10 });
    expect(again.body.existingBumper).toBe(true);
    expect(again.body.message).toBe(
      "You already have a bumper for this token. It has been loaded.",
    );
    expect((again.body.bumper as Bumper).id).toBe(bumper.id);
  });
});

describe("a bumper's own routes", () => {
  it("answers 404 to another user, and to an id that is not one, on every route", async () => {
    const bundle = await launch();
    const id = ((await generate(bundle.token)).body.bumper as Bumper).id;
    const receiverAddress = privateKeyToAccount(generatePrivateKey()).address;
    for (const [method, route, body] of [
      ["GET", `/api/bumper/${id}`, undefined],
      ["GET", `/api/bumper/${id}/wallets`, undefined],
      ["POST", `/api/bumper/${id}/start`, undefined],
      ["POST", `/api/bumper/${id}/stop`, undefined],
      ["POST", "/api/bumper/withdraw", { bumperId: id, receiverAddress }],
      ["GET", "/api/bumper/not-an-id", undefined],
    ] as const) {
      const answer = await callAs(method, route, body);
      expect(answer.status, `${method} ${route}`).toBe(404);
      expect(answer.body).toEqual({ success: false, error: "Bumper not found" });
    }
    expect(((await callAs("GET", "/api/bumper/user")).body.bumpers as Bumper[]).length).toBe(0);
  });

  it("refuses to start a bumper whose token is X Mode, saying why, and leaves it ready (four-meme-ai errors.md)", async () => {
    const bundle = await launch();
    const bumper = (await generate(bundle.token)).body.bumper as Bumper;
    await setBalance(bumper.address as Address, parseEther("0.1"));
    await bed.testChain.setTokenKind(bundle.token, { template: 0x10000n });
    const answer = await call("POST", `/api/bumper/${bumper.id}/start`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(
      `Token ${bundle.token} cannot be bumped: it is an X Mode token: four.meme sells it only through buys its own API signs, which this app does not make`,
    );
    expect(((await call("GET", `/api/bumper/${bumper.id}`)).body.bumper as Bumper).status).toBe(
      "ready",
    );
  });

  it("refuses to start a bumper whose wallet holds nothing", async () => {
    const bundle = await launch();
    const id = ((await generate(bundle.token)).body.bumper as Bumper).id;
    const answer = await call("POST", `/api/bumper/${id}/start`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(
      "Fund the bumper address before starting it: its balance is 0 BNB",
    );
    expect(((await call("GET", `/api/bumper/${id}`)).body.bumper as Bumper).status).toBe("ready");
  });
});

describe("bumping", () => {
  it("buys and sells in one block each bump, moves on to a fresh wallet, completes, and accounts for every wei", async () => {
    const bundle = await launch();
    const bumper = (await generate(bundle.token)).body.bumper as Bumper;
    const funded = parseEther("0.1");
    await setBalance(bumper.address as Address, funded);
    const started = await call("POST", `/api/bumper/${bumper.id}/start`);
    expect(started.body.message).toBe("Bumper started successfully!");

    const done = await bumpUntil((b) => b.status === "completed", bumper.id);
    expect(done).toMatchObject({ bumpsCompleted: 3, currentWalletIndex: 3, active: false });

    const shown = await call("GET", `/api/bumper/${bumper.id}`);
    const bumps = shown.body.bumps as Bump[];
    expect(bumps).toHaveLength(3);
    for (const bump of bumps) {
      const [buy, sell] = await Promise.all(
        [bump.buyHash, bump.sellHash].map((hash) =>
          bed.testChain.chain.client.getTransactionReceipt({ hash: hash as Hex }),
        ),
      );
      expect(buy?.status).toBe("success");
      expect(sell?.status).toBe("success");
      expect(sell?.blockNumber).toBe(buy?.blockNumber);
      expect(Number(bump.bought)).toBe(0.01);
    }

    const wallets = (await call("GET", `/api/bumper/${bumper.id}/wallets`)).body
      .wallets as BumperWallet[];
    expect(wallets.map((w) => w.index)).toEqual([0, 1, 2, 3]);
    expect(wallets.filter((w) => w.isActive).map((w) => w.index)).toEqual([3]);
    for (const wallet of wallets.slice(0, 3)) expect(wallet.balance).toBe("0");

    // Every wei: what is left + gas and tips + what the trades cost (bought − sold) = funded.
    let left = 0n;
    for (const wallet of wallets) left += await balanceOf(wallet.address as Address);
    const gas = bumps.reduce((sum, b) => sum + parseEther(b.gas), 0n);
    const traded = bumps.reduce((sum, b) => sum + parseEther(b.bought) - parseEther(b.sold), 0n);
    expect(left + gas + traded).toBe(funded);
    expect(parseEther(done.gasSpent)).toBe(gas);
    // The gas shown is the receipts' fees plus each bundle's tip (its value and its gas).
    expect(gas - (await feesOf(bumper.id))).toBeGreaterThan(TIP * 3n);
    for (const wallet of wallets)
      expect(
        await tokenBalance(bed.testChain, bundle.token, wallet.address as Address),
      ).toBeLessThan(10n ** 9n);
  });

  it("answers its status poll from one read that matches the separate reads and the list", async () => {
    const bundle = await launch();
    const bumper = (await generate(bundle.token)).body.bumper as Bumper;
    await setBalance(bumper.address as Address, parseEther("0.1"));
    await call("POST", `/api/bumper/${bumper.id}/start`);
    await bumpUntil((b) => b.bumpsCompleted >= 2, bumper.id);
    await call("POST", `/api/bumper/${bumper.id}/stop`);

    const repo = new BumperRepository(bed.app.database.db);
    const row = (await repo.byId(bumper.id)) as BumperRow;
    const one = await repo.withStatus(row.ownerId, row.id);
    const done = (await repo.bumps(row.id)).filter((b) => b.status === "done");
    expect(done.length).toBeGreaterThanOrEqual(2);
    expect(one).toEqual({
      row,
      live: (await repo.liveWallets([row.id])).map(({ bumperId, index, address }) => ({
        bumperId,
        index,
        address,
      })),
      totals: (await repo.totals([row.id])).get(row.id),
      bumps: done.map(({ bumperId, walletIndex, status, attempt, moveAttempt, error, ...b }) => b),
    });
    expect(await repo.withStatus(row.ownerId, "00000000-0000-0000-0000-000000000000")).toBe(
      undefined,
    );

    const shown = (await call("GET", `/api/bumper/${bumper.id}`)).body.bumper as Bumper;
    const listed = (await call("GET", "/api/bumper/user")).body.bumpers as Bumper[];
    expect(listed.find((b) => b.id === bumper.id)).toEqual(shown);
  });

  it("stops by itself when the balance can no longer pay a bump, saying why", async () => {
    const bundle = await launch();
    const bumper = (await generate(bundle.token)).body.bumper as Bumper;
    await setBalance(bumper.address as Address, parseEther("0.005"));
    await call("POST", `/api/bumper/${bumper.id}/start`);
    const stopped = await bumpUntil((b) => b.status === "stopped", bumper.id);
    expect(stopped.stopReason).toMatch(
      /^the balance can no longer pay a bump: insufficient balance/,
    );
    expect(stopped.bumpsCompleted).toBe(0);
    expect(await balanceOf(bumper.address as Address)).toBe(parseEther("0.005"));
  });

  it("bumps again once started again after it stopped for its balance and was topped up", async () => {
    const bundle = await launch();
    const bumper = (await generate(bundle.token)).body.bumper as Bumper;
    await setBalance(bumper.address as Address, parseEther("0.005"));
    await call("POST", `/api/bumper/${bumper.id}/start`);
    await bumpUntil((b) => b.status === "stopped", bumper.id);
    await setBalance(bumper.address as Address, parseEther("0.1"));
    expect((await call("POST", `/api/bumper/${bumper.id}/start`)).status).toBe(200);
    const bumped = await bumpUntil((b) => b.bumpsCompleted >= 1, bumper.id);
    expect(bumped.status).not.toBe("stopped");
    const [bump] = (await call("GET", `/api/bumper/${bumper.id}`)).body.bumps as Bump[];
    expect(bump?.buyHash).toBeTruthy();
  });

  it("bumps a graduated token through the DEX router", async () => {
    const bundle = await launch();
    await graduate(bed.testChain, bundle.token);
    const bumper = (await generate(bundle.token, { duration: 2 })).body.bumper as Bumper;
    await setBalance(bumper.address as Address, parseEther("0.1"));
    await call("POST", `/api/bumper/${bumper.id}/start`);
    const done = await bumpUntil((b) => b.status === "completed", bumper.id);
    expect(done.bumpsCompleted).toBe(2);
    const [bump] = (await call("GET", `/api/bumper/${bumper.id}`)).body.bumps as Bump[];
    const buy = await bed.testChain.chain.client.getTransaction({ hash: bump?.buyHash as Hex });
    expect(buy.to?.toLowerCase()).toBe(bed.testChain.chain.trade?.router.toLowerCase());
  });
});
