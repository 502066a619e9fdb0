import { type Hex, parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { fresh, useTxManagerTestbed } from "./tx-manager.test-support.ts";

// A bundle's transactions recorded from intents (the wallet manager's sells): nonces, busy
// senders and keys as `sendUnlessBusy` has them, but never broadcast.
const ctx = useTxManagerTestbed();
const { manager, funded, transfer } = ctx;

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
});
