import { describe, expect, it } from "vitest";
import { TransactionsRepository } from "./transactions.repository.ts";
import { fresh, useTxManagerTestbed } from "./tx-manager.test-support.ts";
import { TxManager } from "./tx-manager.ts";

// Dropped transactions (refused by the node past the bound) and the retries sent in their place.
const ctx = useTxManagerTestbed();
const { rows, manager, funded, balance, transfer, droppedTransfer, laggingReceipts } = ctx;

describe("the transaction manager", () => {
  it("drops a transaction the node keeps refusing after the bound, says why, and gives its nonce to the next one", async () => {
    const txm = manager({ dropAfterMs: 1500, rebroadcastAfterMs: 200 });
    const account = await funded();
    await ctx.testChain.faults({ refuseRawFrom: [account.address] });
    const refused = transfer(account, fresh(), 1000n);
    const [row] = await txm.send([refused]);
    expect(row?.status).toBe("signed");
    const [dropped] = await txm.waitFinal([refused.key], { pollMs: 200 });
    expect(dropped?.status).toBe("dropped");
    expect(dropped?.error).toMatch(/the node refused it: .*insufficient funds/);

    await ctx.testChain.faults({});
    const next = transfer(account, fresh(), 2000n);
    const [taken] = await txm.send([next]);
    expect(taken?.nonce).toBe(dropped?.nonce);
    expect((await txm.waitFinal([next.key], { pollMs: 200 }))[0]?.status).toBe("mined");
    // The next one is mined two blocks deep, so its use of the nonce is settled: the dropped
    // one can never land, and the watch that kept an eye on it ends it replaced.
    const [after] = await txm.find([refused.key]);
    expect(after?.status).toBe("replaced");
    expect(after?.error).toBe("dropped, then its nonce was used by another transaction");
  });

  it("records a dropped transaction that landed after all as mined, once its nonce shows it", async () => {
    const { txm, account, first, row } = await droppedTransfer(fresh(), true);
    const second = transfer(account, fresh(), 2000n);
    const [reused] = await txm.send([second]);
    expect(reused?.nonce).toBe(row?.nonce);
    // Another node had the first one after all: it lands before the second.
    await ctx.testChain.rpc("eth_sendRawTransaction", [row?.rawTx]);
    await ctx.testChain.mine();
    await ctx.testChain.faults({});
    await txm.waitFinal([second.key], { pollMs: 200 });
    const [a, b] = await Promise.all([txm.find([first.key]), txm.find([second.key])]);
    expect(a[0]?.status).toBe("mined");
    expect(b[0]?.status).toBe("replaced");
  });

  it("keeps watching a dropped transaction and records it mined when it lands with nothing sent in its place", async () => {
    const { txm, first, row } = await droppedTransfer();
    // A node that kept it passes it on, long after it was dropped here: its block and two on
    // top (it counts as mined only once two blocks deep).
    await ctx.testChain.rpc("eth_sendRawTransaction", [row?.rawTx]);
    for (let block = 0; block < 3; block++) await ctx.testChain.mine();
    const finished = await txm.reconcile();
    expect(finished.map((r) => [r.key, r.status])).toEqual([[first.key, "mined"]]);
    const [landed] = await txm.find([first.key]);
    expect(landed?.error).toBe("landed after it was declared dropped");
    expect(BigInt(landed?.fee ?? 0)).toBeGreaterThan(0n);
  });

  it("ends a dropped transaction replaced, and stops watching it, once another one's use of its nonce is settled", async () => {
    const repo = new TransactionsRepository(ctx.database.db);
    const { txm, account, first } = await droppedTransfer();
    const next = transfer(account, fresh(), 2000n);
    await txm.send([next]);
    await txm.waitFinal([next.key], { pollMs: 200 });
    await ctx.testChain.rpc("anvil_mine", ["0x3"]);
    await txm.reconcile();
    const [after] = await txm.find([first.key]);
    expect(after?.status).toBe("replaced");
    expect((await repo.watchedDropped()).map((r) => r.key)).not.toContain(first.key);
  });

  it("makes a retry wait while another transaction holds its dropped attempt's nonce, and sends it once that nonce is settled", async () => {
    const to = fresh();
    const { txm, account, first, row } = await droppedTransfer(to);
    // Something else from the same address is pending first (the node's next nonce is above).
    const other = transfer(account, fresh(), 5n);
    const [otherRow] = await txm.send([other]);
    expect(otherRow?.nonce).toBe(row?.nonce);
    // Refused while the other one is pending, or, if a block took it meanwhile (it did once
    // on Postgres), while its use of the nonce settles: either way the retry waits.
    await expect(
      txm.send([{ ...transfer(account, to, 1000n), retries: first.key }]),
    ).rejects.toThrow(
      /another transaction holds nonce|the nonce of .* was used in the last blocks/,
    );
    await txm.waitFinal([other.key], { pollMs: 200 });
    await ctx.testChain.rpc("anvil_mine", ["0x3"]);
    // The other one used that nonce and the first has no receipt: it can never land now.
    const retry = { ...transfer(account, to, 1000n), retries: first.key };
    const [sent] = await txm.send([retry]);
    expect(sent?.nonce).toBe((row?.nonce ?? 0) + 1);
    expect((await txm.waitFinal([retry.key], { pollMs: 200 }))[0]?.status).toBe("mined");
    expect(await balance(to)).toBe(1000n);
  });

  it("pins a retry to the nonce of the dropped attempt while it is unused, and refuses one whose attempt landed", async () => {
    const to = fresh();
    const { txm, account, first, row } = await droppedTransfer(to, true);
    // (Another value: the very same bytes would be the first transaction itself, retaken.)
    const second = { ...transfer(account, to, 1001n), retries: first.key };
    const [pinned] = await txm.send([second]);
    expect(pinned?.nonce).toBe(row?.nonce);
    // The first lands from a pool that kept it: the second can no longer, and a third is refused.
    await ctx.testChain.rpc("eth_sendRawTransaction", [row?.rawTx]);
    await ctx.testChain.mine();
    await ctx.testChain.faults({});
    const third = { ...transfer(account, to, 1000n), retries: second.key };
    await expect(txm.send([third])).rejects.toThrow(/still on its way|landed/);
    await ctx.testChain.rpc("anvil_mine", ["0x3"]);
    await txm.waitFinal([second.key], { pollMs: 200 });
    expect((await txm.find([first.key]))[0]?.status).toBe("mined");
    expect((await txm.find([second.key]))[0]?.status).toBe("replaced");
    await expect(
      txm.send([{ ...transfer(account, to, 1000n), retries: first.key }]),
    ).rejects.toThrow(/which landed/);
    expect(await rows.byKeys([third.key])).toEqual([]);
    expect(await balance(to)).toBe(1000n);
  });

  it("refuses a third attempt when the first landed late, though the second it retries never can", async () => {
    const to = fresh();
    const { txm, account, first, row } = await droppedTransfer(to, true);
    const second = { ...transfer(account, to, 1001n), retries: first.key };
    const [pinned] = await txm.send([second]);
    expect(pinned?.nonce).toBe(row?.nonce);
    // The first lands from a pool that kept it; the second, at the same nonce, never can.
    await ctx.testChain.rpc("eth_sendRawTransaction", [row?.rawTx]);
    await ctx.testChain.mine();
    await ctx.testChain.faults({});
    await ctx.testChain.rpc("anvil_mine", ["0x3"]);
    expect((await txm.waitFinal([second.key], { pollMs: 200 }))[0]?.status).toBe("replaced");
    const third = { ...transfer(account, to, 1000n), retries: second.key };
    await expect(txm.send([third])).rejects.toThrow(/landed/);
    expect(await rows.byKeys([third.key])).toEqual([]);
    expect(await balance(to)).toBe(1000n);
  });

  it("gives a retry its pinned nonce before a new transaction of the same call picks one", async () => {
    const to = fresh();
    const { txm, account, first, row } = await droppedTransfer(to);
    // The new one is listed first; the node's next nonce is the dropped attempt's.
    const other = transfer(account, fresh(), 5n);
    const retry = { ...transfer(account, to, 1000n), retries: first.key };
    const [otherRow, retryRow] = await txm.send([other, retry]);
    expect(retryRow?.nonce).toBe(row?.nonce);
    expect(otherRow?.nonce).toBe((row?.nonce ?? 0) + 1);
    const done = await txm.waitFinal([other.key, retry.key], { pollMs: 200 });
    expect(done.map((d) => d?.status)).toEqual(["mined", "mined"]);
    expect(await balance(to)).toBe(1000n);
  });

  it("never sends a retry after one read missed the receipt of an attempt that landed", async () => {
    const to = fresh();
    const { account, first, row } = await droppedTransfer(to);
    const lagging = await laggingReceipts(() => row?.txHash, 1);
    try {
      // The dropped attempt lands (another pool kept it) before any reconcile records it.
      await ctx.testChain.rpc("eth_sendRawTransaction", [row?.rawTx]);
      await ctx.testChain.mine();
      const txm = new TxManager(
        new TransactionsRepository(ctx.database.db),
        { ...ctx.testChain.chain, rpcUrl: lagging.url },
        {},
      );
      const retry = { ...transfer(account, to, 1000n), retries: first.key };
      await expect(txm.send([retry])).rejects.toThrow(/landed/);
      expect(lagging.lies()).toBe(1);
      expect(await rows.byKeys([retry.key])).toEqual([]);
      expect(await balance(to)).toBe(1000n);
    } finally {
      await lagging.close();
    }
  });

  it("records a retry that is byte for byte its dropped attempt on that attempt's row, under the new key, and sends it; the first key still finds it", async () => {
    const to = fresh();
    const { txm, account, first, row } = await droppedTransfer(to);
    const retry = {
      ...transfer(account, to, 1000n),
      gasPrice: BigInt(row?.gasPrice ?? 0),
      retries: first.key,
    };
    const [retaken] = await txm.send([retry]);
    expect(retaken?.txHash).toBe(row?.txHash);
    expect(retaken?.id).toBe(row?.id);
    expect((await txm.waitFinal([retry.key], { pollMs: 200 }))[0]?.status).toBe("mined");
    const [under] = await txm.find([first.key]);
    expect([under?.id, under?.key, under?.status]).toEqual([row?.id, first.key, "mined"]);
    expect(await balance(to)).toBe(1000n);
  });
});
