import type { Bumper, BumperWallet } from "@bundler/shared";
import { sql } from "drizzle-orm";
import { type Address, type Hex, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../../test/app.ts";
import { launchBundle } from "../../test/bundles.ts";
import type { TestChain } from "../../test/chain.ts";
import { apiCaller } from "../../test/drafts-api.ts";
import { stopTestbed } from "../../test/testbed.ts";
import { startBumperTestbed } from "./bumper.test-support.ts";

/**
 * Issue 27: a bump moves its wallet's BNB on to the next wallet, and the bumper goes on from
 * there once that move is mined: two blocks deep, not at its first receipt, so a block the
 * chain takes back never sends the bumper on to a wallet the money never reached.
 */
const masterKey = Buffer.alloc(32, 43);
let testChain: TestChain;
let app: TestApp;
let key: string;

beforeAll(async () => {
  // A move the chain lost is sent again within a second, not ten.
  ({ testChain, app, key } = await startBumperTestbed(masterKey, {
    transactions: { rebroadcastAfterMs: 500 },
  }));
});
afterAll(() => stopTestbed({ app, testChain }));

const call = apiCaller(
  () => app,
  () => key,
);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The bumper's bumps as stored: index, status, and its move's transaction, if any. */
const bumpsOf = async (bumperId: string) => {
  const { rows } = await app.database.db.execute(
    sql`select b.index, b.status, t.tx_hash as "moveHash"
        from bumps b left join chain_txs t
          on t.key = 'bump-move:' || b.bumper_id || ':' || b.index || ':' || b.move_attempt
        where b.bumper_id = ${bumperId} order by b.index`,
  );
  return rows as Array<{ index: number; status: string; moveHash: string | null }>;
};

/** The per-block work (the manager's reconcile, then the bumper's pass) until `done` or 60 s. */
const passUntil = async (done: () => Promise<boolean>) => {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await app.transactions?.reconcile();
    await app.bumperEngine?.tick();
    if (await done()) return;
    if (Date.now() > deadline) throw new Error("the bumper never got there");
    await sleep(200);
  }
};

describe("a bump's move whose block the chain takes back", () => {
  it("goes on to the next wallet only once the move is two blocks deep, and moves the BNB once when that block is taken back", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const generated = await call("POST", "/api/bumper/generate", {
      targetToken: bundle.token,
      interval: 1,
      duration: 3,
      buySize: 0.01,
    });
    expect(generated.status, JSON.stringify(generated.body)).toBe(200);
    const bumper = generated.body.bumper as Bumper;
    await testChain.rpc("anvil_setBalance", [
      bumper.address,
      `0x${parseEther("0.1").toString(16)}`,
    ]);
    expect((await call("POST", `/api/bumper/${bumper.id}/start`)).status).toBe(200);
    // Traded: the next pass sends the move.
    await passUntil(async () => (await bumpsOf(bumper.id))[0]?.status === "moving");

    await testChain.setBlockTime(0);
    try {
      await passUntil(async () => Boolean((await bumpsOf(bumper.id))[0]?.moveHash));
      const moveHash = (await bumpsOf(bumper.id))[0]?.moveHash as Hex;
      const { result: snapshot } = (await (await testChain.rpc("evm_snapshot", [])).json()) as {
        result: string;
      };
      // The move's block, and one on top of it.
      await testChain.mine();
      await testChain.mine();
      await app.transactions?.reconcile();
      await app.bumperEngine?.tick();
      expect((await bumpsOf(bumper.id))[0]?.status).toBe("moving");
      await testChain.rpc("evm_revert", [snapshot]);
      await testChain.rpc("anvil_dropTransaction", [moveHash]);
    } finally {
      await testChain.setBlockTime();
    }

    await passUntil(async () => (await bumpsOf(bumper.id))[0]?.status === "done");
    const wallets = (await call("GET", `/api/bumper/${bumper.id}/wallets`)).body
      .wallets as BumperWallet[];
    const [first, second] = await Promise.all(
      wallets
        .slice(0, 2)
        .map((wallet) => testChain.chain.client.getBalance({ address: wallet.address as Address })),
    );
    // The first wallet's BNB went on once, all of it, and the second holds it.
    expect(first).toBe(0n);
    expect(second).toBeGreaterThan(parseEther("0.05"));
  }, 180_000);
});
