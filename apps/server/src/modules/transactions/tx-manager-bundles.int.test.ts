import { type Hex, parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { startUnreliableRpc } from "../../test/unreliable-rpc.ts";
import { fresh, useTxManagerTestbed } from "./tx-manager.test-support.ts";

// A bundle's transactions recorded from intents (the wallet manager's sells): nonces, busy
// senders and keys as `sendUnlessBusy` has them, but never broadcast.
const ctx = useTxManagerTestbed();
const { manager, funded, transfer, rows } = ctx;

describe("the transaction manager's bundle recording", () => {
  it("reserves consecutive nonces and signs, never broadcasting", async () => {
    const txm = manager();
    const account = await funded();
    const intents = [transfer(account, fresh(), 1000n), transfer(account, fresh(), 2000n)];
    const head = await ctx.testChain.chain.client.getBlockNumber();
    const { rows, created, busy } = await txm.recordBundleUnlessBusy(
      intents,
      { ownKeys: new Set(intents.map((i) => i.key)), minedNonces: new Map() },
      head + 5n,
    );
    expect(busy.size).toBe(0);
    expect(rows.map((row) => [row.nonce, row.status, row.validUntilBlock])).toEqual([
      [0, "signed", head + 5n],
      [1, "signed", head + 5n],
    ]);
    expect(created.map((row) => row.key)).toEqual(intents.map((i) => i.key));
    await ctx.testChain.mine();
    expect(
      await ctx.testChain.chain.client
        .getTransaction({ hash: rows[0]?.txHash as Hex })
        .catch(() => null),
    ).toBeNull();
  });

  it("answers a second identical call's rows without creating any", async () => {
    const txm = manager();
    const account = await funded();
    const intents = [transfer(account, fresh(), 1000n)];
    const guard = { ownKeys: new Set(intents.map((i) => i.key)), minedNonces: new Map() };
    const head = await ctx.testChain.chain.client.getBlockNumber();
    const first = await txm.recordBundleUnlessBusy(intents, guard, head + 5n);
    const again = await txm.recordBundleUnlessBusy(intents, guard, head + 5n);
    expect(again.rows.map((row) => row.id)).toEqual(first.rows.map((row) => row.id));
    expect(again.created).toEqual([]);
  });

  it("answers a sender with another request's transaction open busy, recording nothing for it", async () => {
    const txm = manager();
    const account = await funded();
    const head = await ctx.testChain.chain.client.getBlockNumber();
    const earlier = transfer(account, fresh(), 1000n);
    await txm.recordBundleUnlessBusy(
      [earlier],
      { ownKeys: new Set([earlier.key]), minedNonces: new Map() },
      head + 5n,
    );
    const later = transfer(account, fresh(), parseEther("0.01"));
    const { rows, busy } = await txm.recordBundleUnlessBusy(
      [later],
      { ownKeys: new Set([later.key]), minedNonces: new Map([[account.address, 0]]) },
      head + 5n,
    );
    expect(rows).toEqual([]);
    expect(busy.get(account.address)?.key).toBe(earlier.key);
  });

  it("drops a bundle no builder took with the refusal noted, once the chain passed its window", async () => {
    const txm = manager();
    const account = await funded();
    const intent = transfer(account, fresh(), 1000n);
    const head = await ctx.testChain.chain.client.getBlockNumber();
    await txm.recordBundleUnlessBusy(
      [intent],
      { ownKeys: new Set([intent.key]), minedNonces: new Map() },
      head + 1n,
    );
    await txm.noteBundleRefusal([intent.key], "no builder took the bundle: builder local refused");
    const [done] = await txm.waitFinal([intent.key], { pollMs: 200 });
    expect(done?.status).toBe("dropped");
    expect(done?.error).toBe(
      `the bundle was not included by block ${head + 1n}: no builder took the bundle: builder local refused`,
    );
  });

  it("keeps a bundle transaction that landed in its window's last block when a node behind answers its receipt and nonce", async () => {
    const account = await funded();
    const intent = transfer(account, fresh(), 1000n);
    // The head from a node up to date, receipts and nonces from one three blocks behind.
    const rpc = await startUnreliableRpc({
      upstream: () => ctx.testChain.chain.rpcUrl,
      seed: 1,
      dropRate: 0,
      delayMs: () => 0,
      lagOf: (method) => (method === "eth_blockNumber" ? 0 : 3),
    });
    await ctx.testChain.setBlockTime(0);
    try {
      const txm = manager({}, rpc.url);
      const head = await ctx.testChain.chain.client.getBlockNumber();
      const { created } = await txm.recordBundleUnlessBusy(
        [intent],
        { ownKeys: new Set([intent.key]), minedNonces: new Map() },
        head + 1n,
      );
      // A builder puts it in the window's last block.
      await ctx.testChain.rpc("eth_sendRawTransaction", [created[0]?.rawTx]);
      await ctx.testChain.mine();
      await ctx.testChain.mine();
      await txm.reconcile();
      expect((await rows.byKeys([intent.key]))[0]?.status).toBe("signed");
      for (let i = 0; i < 5; i++) await ctx.testChain.mine();
      await txm.reconcile();
      expect((await rows.byKeys([intent.key]))[0]).toMatchObject({
        status: "mined",
        blockNumber: head + 1n,
      });
    } finally {
      await ctx.testChain.setBlockTime();
      await rpc.close();
    }
  });
});
