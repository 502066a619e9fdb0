import { MULTICALL3_ADDRESS } from "@bundler/contracts";
import { type Hex, keccak256, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { armFailpoint } from "../../lib/failpoints.ts";
import { TransactionsRepository } from "./transactions.repository.ts";
import { fresh, useTxManagerTestbed } from "./tx-manager.test-support.ts";
import { TxManager } from "./tx-manager.ts";

const ctx = useTxManagerTestbed();
const { rows, manager, funded, balance, bundleTx, transfer, laggingReceipts } = ctx;

describe("the transaction manager", () => {
  it("sends once per key: a second send of the same key answers the first and pays nothing more", async () => {
    const txm = manager();
    const account = await funded();
    const to = fresh();
    const intent = transfer(account, to, parseEther("0.1"));
    const [first] = await txm.send([intent]);
    const [again] = await txm.send([{ ...intent, value: parseEther("0.2") }]);
    expect(again?.id).toBe(first?.id);
    const [done] = await txm.waitFinal([intent.key], { pollMs: 200 });
    expect(done?.status).toBe("mined");
    expect(await balance(to)).toBe(parseEther("0.1"));
    expect(await ctx.testChain.chain.client.getTransactionCount({ address: account.address })).toBe(
      1,
    );
  });

  it("never signs two transactions with one nonce when two managers send from one address at once", async () => {
    const [a, b] = [manager(), manager()];
    const account = await funded();
    const intents = Array.from({ length: 6 }, () => transfer(account, fresh(), 1000n));
    const rows = (
      await Promise.all([
        a.send(intents.slice(0, 3)),
        b.send(intents.slice(3)),
        a.send(intents.slice(1, 4)),
      ])
    ).flat();
    const nonces = new Map(rows.map((row) => [row.key, row.nonce]));
    expect(nonces.size).toBe(6);
    expect([...nonces.values()].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    const done = await a.waitFinal(
      intents.map((i) => i.key),
      { pollMs: 200 },
    );
    expect(done.every((row) => row.status === "mined")).toBe(true);
    expect(await ctx.testChain.chain.client.getTransactionCount({ address: account.address })).toBe(
      6,
    );
  });

  it("broadcasts a transaction recorded by a process that died before broadcasting it, once", async () => {
    const account = await funded();
    const to = fresh();
    const intent = transfer(account, to, parseEther("0.05"));
    armFailpoint("tx.recorded", "throw", 1);
    await expect(manager().send([intent])).rejects.toThrow(/failpoint tx.recorded/);
    const [recorded] = await manager().find([intent.key]);
    expect(recorded?.status).toBe("signed");
    expect(await balance(to)).toBe(0n);
    const [done] = await manager().waitFinal([intent.key], { pollMs: 200 });
    expect(done?.status).toBe("mined");
    expect(done?.fee).toBe((21_000n * BigInt(done?.gasPrice ?? 0)).toString());
    expect(await balance(to)).toBe(parseEther("0.05"));
  });

  it("answers a sender busy, recording nothing, when another request's transaction landed after the caller read its nonce", async () => {
    const txm = manager();
    const account = await funded();
    const first = transfer(account, fresh(), 1000n);
    await txm.send([first]);
    expect((await txm.waitFinal([first.key], { pollMs: 200 }))[0]?.status).toBe("mined");
    // Prepared from a read taken before the first one landed (mined nonce 0): out of date.
    const second = transfer(account, fresh(), 2000n);
    const { rows: sent, busy } = await txm.sendUnlessBusy([second], {
      ownKeys: new Set([second.key]),
      minedNonces: new Map([[account.address, 0]]),
    });
    expect(sent).toEqual([]);
    expect(busy.get(account.address)?.key).toBe(first.key);
    expect(await rows.byKeys([second.key])).toEqual([]);
    // Read again, the caller is not refused.
    const again = await txm.sendUnlessBusy([second], {
      ownKeys: new Set([second.key]),
      minedNonces: new Map([[account.address, 1]]),
    });
    expect(again.busy.size).toBe(0);
    expect(again.rows.map((row) => row.key)).toEqual([second.key]);
  });

  it("holds a transaction signed ahead until the one that funds its sender is mined, then sends it", async () => {
    const txm = manager({ rebroadcastAfterMs: 200 });
    const payer = await funded();
    const middle = privateKeyToAccount(generatePrivateKey());
    const to = fresh();
    // The node refuses the payer's transactions for now: the first one stays open.
    await ctx.testChain.faults({ refuseRawFrom: [payer.address] });
    const first = transfer(payer, middle.address, parseEther("0.1"));
    await txm.send([first]);
    const second = { ...transfer(middle, to, parseEther("0.05")), after: first.key };
    const [held] = await txm.send([second]);
    await txm.reconcile();
    const [waiting] = await rows.byKeys([second.key]);
    expect(waiting?.status).toBe("signed");
    expect(waiting?.lastBroadcastAt).toBeNull();
    expect(waiting?.afterId).toBe((await rows.byKeys([first.key]))[0]?.id);
    const known = await ctx.testChain.rpc("eth_getTransactionByHash", [held?.txHash]);
    expect(((await known.json()) as { result: unknown }).result).toBeNull();

    await ctx.testChain.faults({});
    const done = await txm.waitFinal([first.key, second.key], { pollMs: 200 });
    expect(done.map((row) => row.status)).toEqual(["mined", "mined"]);
    expect(await balance(to)).toBe(parseEther("0.05"));
  });

  it("sends a transaction signed ahead at once when the one it waits for is mined already", async () => {
    const txm = manager();
    const payer = await funded();
    const middle = privateKeyToAccount(generatePrivateKey());
    const first = transfer(payer, middle.address, parseEther("0.1"));
    await txm.send([first]);
    await txm.waitFinal([first.key], { pollMs: 200 });
    const second = { ...transfer(middle, fresh(), parseEther("0.05")), after: first.key };
    const [sent] = await txm.send([second]);
    expect(sent?.status).toBe("sent");
  });

  it("drops a transaction signed ahead, never sent, when the one it waits for fails", async () => {
    const txm = manager();
    const payer = await funded();
    const middle = privateKeyToAccount(generatePrivateKey());
    // A transfer into a contract that refuses BNB: it reverts, and the middle gets nothing.
    const first = { ...transfer(payer, MULTICALL3_ADDRESS, 1000n), gas: 60_000n };
    await txm.send([first]);
    const second = { ...transfer(middle, fresh(), 500n), after: first.key };
    await txm.send([second]);
    // Dropped as soon as the first one is settled, not after the 10 minutes a refused one waits.
    const final = await txm.waitFinal([first.key, second.key], {
      pollMs: 200,
      timeoutMs: 30_000,
    });
    // Rows come in no particular order: the second ends before the first is two blocks deep.
    const failed = final.find((row) => row.key === first.key);
    const dropped = final.find((row) => row.key === second.key);
    expect(failed?.status).toBe("reverted");
    expect(dropped?.status).toBe("dropped");
    expect(dropped?.broadcasts).toBe(0);
    expect(dropped?.error).toBe("never sent: the transaction it waited for was not mined");
  });

  it("refuses a transaction that waits for one never recorded, and records nothing", async () => {
    const txm = manager();
    const middle = privateKeyToAccount(generatePrivateKey());
    const orphan = { ...transfer(middle, fresh(), 500n), after: "test:never-recorded" };
    await expect(txm.send([orphan])).rejects.toThrow(/which was never recorded/);
    expect(await rows.byKeys([orphan.key])).toEqual([]);
  });

  it("ends a reverted transaction with its reason and its fee", async () => {
    const txm = manager();
    const account = await funded();
    const intent = { ...transfer(account, MULTICALL3_ADDRESS, 1000n), gas: 60_000n };
    await txm.send([intent]);
    const [done] = await txm.waitFinal([intent.key], { pollMs: 200 });
    expect(done?.status).toBe("reverted");
    expect(done?.error).toBeTruthy();
    expect(BigInt(done?.fee ?? 0)).toBeGreaterThan(0n);
  });

  it("ends a transaction whose nonce another one used as replaced", async () => {
    const txm = manager();
    const account = await funded();
    const intent = transfer(account, fresh(), 1000n);
    armFailpoint("tx.recorded", "throw", 1);
    await expect(txm.send([intent])).rejects.toThrow();
    const [row] = await txm.find([intent.key]);
    // The same key used elsewhere (a leaked key, a wallet the user also holds) takes the nonce.
    const other = await account.signTransaction({
      type: "legacy",
      chainId: ctx.testChain.chain.chainId,
      nonce: row?.nonce ?? 0,
      to: fresh(),
      value: 5n,
      gas: 21_000n,
      gasPrice: BigInt(row?.gasPrice ?? 0) * 2n,
    });
    await ctx.testChain.rpc("eth_sendRawTransaction", [other]);
    await ctx.testChain.mine();
    const [done] = await txm.waitFinal([intent.key], { pollMs: 200 });
    expect(done?.status).toBe("replaced");
    expect(done?.error).toMatch(/was used by another transaction/);
  });

  it("never broadcasts a bundle's transactions and drops them once the chain passes its window", async () => {
    const txm = manager();
    const account = await funded();
    const head = await ctx.testChain.chain.client.getBlockNumber();
    const raw = await bundleTx(account);
    await txm.recordBundle([{ key: "test:bundle", purpose: "launch", raw }], head + 1n);
    const [done] = await txm.waitFinal(["test:bundle"], { pollMs: 200 });
    expect(done?.status).toBe("dropped");
    expect(done?.error).toBe(`the bundle was not included by block ${head + 1n}`);
    expect(
      await ctx.testChain.chain.client
        .getTransactionReceipt({ hash: keccak256(raw) })
        .catch(() => null),
    ).toBeNull();
    expect(await ctx.testChain.chain.client.getTransactionCount({ address: account.address })).toBe(
      0,
    );
  });

  /** A bundle transaction recorded, sent straight to the node and mined `blocks` deep, then its blocks taken back. */
  const minedThenTakenBack = async (blocks: number, seen: (txm: TxManager) => Promise<void>) => {
    const txm = manager();
    const account = await funded();
    const head = await ctx.testChain.chain.client.getBlockNumber();
    const raw = await bundleTx(account);
    const key = `test:taken-back-${blocks}`;
    await txm.recordBundle([{ key, purpose: "launch", raw }], head + BigInt(blocks) + 6n);
    await ctx.testChain.setBlockTime(0);
    try {
      const { result: snapshot } = (await (await ctx.testChain.rpc("evm_snapshot", [])).json()) as {
        result: string;
      };
      await ctx.testChain.rpc("eth_sendRawTransaction", [raw]);
      for (let block = 0; block < blocks; block++) await ctx.testChain.mine();
      await seen(txm);
      await ctx.testChain.rpc("evm_revert", [snapshot]);
      await ctx.testChain.rpc("anvil_dropTransaction", [keccak256(raw)]);
    } finally {
      await ctx.testChain.setBlockTime();
    }
    return { txm, account, key };
  };

  it("records a transaction mined only once its receipt is two blocks deep, so a block the chain took back never counted", async () => {
    const { txm, account, key } = await minedThenTakenBack(2, async (txm) => {
      // Its block and one on top: a reorg may still take it back.
      await txm.reconcile();
      expect((await rows.byKeys([`test:taken-back-2`]))[0]?.status).not.toBe("mined");
    });
    const [done] = await txm.waitFinal([key], { pollMs: 200 });
    expect(done?.status).toBe("dropped");
    expect(done?.blockNumber).toBeNull();
    expect(await ctx.testChain.chain.client.getTransactionCount({ address: account.address })).toBe(
      0,
    );
  });

  it("decides again a transaction recorded mined in blocks the chain then dropped", async () => {
    const { txm, account, key } = await minedThenTakenBack(3, async (txm) => {
      await txm.reconcile();
      expect((await rows.byKeys([`test:taken-back-3`]))[0]?.status).toBe("mined");
    });
    expect(await txm.recheck([key])).toEqual([key]);
    const [done] = await txm.waitFinal([key], { pollMs: 200 });
    expect(done?.status).toBe("dropped");
    expect(done?.blockNumber).toBeNull();
    expect(await ctx.testChain.chain.client.getTransactionCount({ address: account.address })).toBe(
      0,
    );
  });

  it("leaves a transaction mined when the chain still has its receipt", async () => {
    const txm = manager();
    const account = await funded();
    const [sent] = await txm.send([transfer(account, fresh(), 1n)]);
    const key = sent?.key as string;
    const [row] = await txm.waitFinal([key], { pollMs: 200 });
    expect(row?.status).toBe("mined");
    expect(await txm.recheck([key])).toEqual([]);
    expect((await rows.byKeys([key]))[0]?.status).toBe("mined");
  });

  it("records again, under a new key, a bundle transaction identical to one that was dropped", async () => {
    const txm = manager();
    const account = await funded();
    const raw = await bundleTx(account);
    const head = await ctx.testChain.chain.client.getBlockNumber();
    await txm.recordBundle([{ key: "test:first-try", purpose: "launch", raw }], head + 1n);
    const [dropped] = await txm.waitFinal(["test:first-try"], { pollMs: 200 });
    expect(dropped?.status).toBe("dropped");

    // The same wallet signs the same call at the same nonce and price: the same bytes.
    const now = await ctx.testChain.chain.client.getBlockNumber();
    const [again] = await txm.recordBundle(
      [{ key: "test:second-try", purpose: "launch", raw }],
      now + 5n,
    );
    expect(again?.key).toBe("test:second-try");
    expect(again?.status).toBe("signed");
    expect(again?.validUntilBlock).toBe(now + 5n);
    expect(again?.txHash).toBe(keccak256(raw));
  });

  it("still refuses a bundle transaction at a nonce another open transaction of ours holds", async () => {
    const txm = manager();
    const account = await funded();
    const head = await ctx.testChain.chain.client.getBlockNumber();
    await txm.recordBundle(
      [{ key: "test:open-one", purpose: "launch", raw: await bundleTx(account, 1n) }],
      head + 5n,
    );
    await expect(
      txm.recordBundle(
        [{ key: "test:other-one", purpose: "launch", raw: await bundleTx(account, 2n) }],
        head + 5n,
      ),
    ).rejects.toThrow();
    expect(await txm.find(["test:other-one"])).toHaveLength(0);
  });

  it("never calls a mined transaction replaced when one read misses its receipt while its nonce shows used", async () => {
    let hash: string | undefined;
    const lagging = await laggingReceipts(() => hash, 1);
    try {
      const txm = new TxManager(
        new TransactionsRepository(ctx.database.db),
        { ...ctx.testChain.chain, rpcUrl: lagging.url },
        {},
      );
      const account = await funded();
      const intent = transfer(account, fresh(), 1000n);
      const [row] = await txm.send([intent]);
      hash = row?.txHash;
      await ctx.testChain.chain.client.waitForTransactionReceipt({
        hash: row?.txHash as Hex,
        pollingInterval: 100,
      });
      // Mined, and two more blocks on top: the nonce has been used for a while.
      await ctx.testChain.mine();
      await ctx.testChain.mine();
      await txm.reconcile();
      expect(lagging.lies()).toBe(1);
      const [done] = await txm.find([intent.key]);
      expect(done?.status).toBe("mined");
    } finally {
      await lagging.close();
    }
  });
});
