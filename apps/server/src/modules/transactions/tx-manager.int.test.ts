import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { MULTICALL3_ADDRESS } from "@bundler/contracts";
import { type Address, type Hex, keccak256, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client.ts";
import { armFailpoint, disarmFailpoints } from "../../lib/failpoints.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { createTestDatabase } from "../../test/database.ts";
import { TransactionsRepository } from "./transactions.repository.ts";
import { type TxIntent, TxManager } from "./tx-manager.ts";

let testChain: TestChain;
let database: Database;

beforeAll(async () => {
  testChain = await startTestChain(Buffer.alloc(32, 3));
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
  await testChain?.stop();
});
afterEach(async () => {
  disarmFailpoints();
  await testChain.faults({});
});

const rows = {
  byKeys: (keys: string[]) => new TransactionsRepository(database.db).byKeys(keys),
};
const manager = (options: ConstructorParameters<typeof TxManager>[2] = {}) =>
  new TxManager(new TransactionsRepository(database.db), testChain.chain, options);

const funded = async (bnb = "1") => {
  const account = privateKeyToAccount(generatePrivateKey());
  await testChain.rpc("anvil_setBalance", [account.address, `0x${parseEther(bnb).toString(16)}`]);
  return account;
};

const fresh = () => privateKeyToAccount(generatePrivateKey()).address;
const balance = (address: Address) => testChain.chain.client.getBalance({ address });
/** A transfer of `value` at nonce 0, signed, for a bundle (recorded, never broadcast by us). */
const bundleTx = (account: Awaited<ReturnType<typeof funded>>, value = 1n) =>
  account.signTransaction({
    type: "legacy",
    chainId: testChain.chain.chainId,
    nonce: 0,
    to: fresh(),
    value,
    gas: 21_000n,
    gasPrice: 10n ** 9n,
  }) as Promise<Hex>;
let keys = 0;
const transfer = (
  account: Awaited<ReturnType<typeof funded>>,
  to: Address,
  value: bigint,
): TxIntent => ({
  key: `test:${++keys}`,
  purpose: "payment-refund",
  account,
  to,
  value,
  gas: 21_000n,
});

/**
 * A transfer of 1000 wei to `to` that the node refused until it was dropped (the refusal is
 * lifted afterwards unless `keepRefusing`): the manager, the sender, the intent and its row.
 */
const droppedTransfer = async (to = fresh(), keepRefusing = false) => {
  const txm = manager({ dropAfterMs: 800, rebroadcastAfterMs: 200 });
  const account = await funded();
  await testChain.faults({ refuseRawFrom: [account.address] });
  const first = transfer(account, to, 1000n);
  const [row] = await txm.send([first]);
  expect((await txm.waitFinal([first.key], { pollMs: 200 }))[0]?.status).toBe("dropped");
  if (!keepRefusing) await testChain.faults({});
  return { txm, account, first, row };
};

/**
 * A JSON-RPC endpoint in front of the test chain that answers the receipt of `hash` with null
 * the first `times` times it is asked: a load-balanced node whose receipt and nonce reads come
 * from nodes at different heights, or a block mined between two reads of one batch.
 */
const laggingReceipts = async (hash: () => string | undefined, times: number) => {
  let lies = 0;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const upstream = await fetch(testChain.chain.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const sent = JSON.parse(body) as unknown;
    const answered = (await upstream.json()) as unknown;
    const calls = (Array.isArray(sent) ? sent : [sent]) as Array<{
      id: number;
      method: string;
      params: unknown[];
    }>;
    const answers = (Array.isArray(answered) ? answered : [answered]) as Array<{
      id: number;
      result?: unknown;
    }>;
    for (const call of calls) {
      if (call.method !== "eth_getTransactionReceipt" || call.params[0] !== hash() || lies >= times)
        continue;
      lies++;
      const answer = answers.find((a) => a.id === call.id);
      if (answer) answer.result = null;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(Array.isArray(answered) ? answers : answers[0]));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lies: () => lies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

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
    expect(await testChain.chain.client.getTransactionCount({ address: account.address })).toBe(1);
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
    expect(await testChain.chain.client.getTransactionCount({ address: account.address })).toBe(6);
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

  it("drops a transaction the node keeps refusing after the bound, says why, and gives its nonce to the next one", async () => {
    const txm = manager({ dropAfterMs: 1500, rebroadcastAfterMs: 200 });
    const account = await funded();
    await testChain.faults({ refuseRawFrom: [account.address] });
    const refused = transfer(account, fresh(), 1000n);
    const [row] = await txm.send([refused]);
    expect(row?.status).toBe("signed");
    const [dropped] = await txm.waitFinal([refused.key], { pollMs: 200 });
    expect(dropped?.status).toBe("dropped");
    expect(dropped?.error).toMatch(/the node refused it: .*insufficient funds/);

    await testChain.faults({});
    const next = transfer(account, fresh(), 2000n);
    const [taken] = await txm.send([next]);
    expect(taken?.nonce).toBe(dropped?.nonce);
    expect((await txm.waitFinal([next.key], { pollMs: 200 }))[0]?.status).toBe("mined");
    expect((await txm.find([refused.key]))[0]?.status).toBe("dropped");
  });

  it("records a dropped transaction that landed after all as mined, once its nonce shows it", async () => {
    const { txm, account, first, row } = await droppedTransfer(fresh(), true);
    const second = transfer(account, fresh(), 2000n);
    const [reused] = await txm.send([second]);
    expect(reused?.nonce).toBe(row?.nonce);
    // Another node had the first one after all: it lands before the second.
    await testChain.rpc("eth_sendRawTransaction", [row?.rawTx]);
    await testChain.mine();
    await testChain.faults({});
    await txm.waitFinal([second.key], { pollMs: 200 });
    const [a, b] = await Promise.all([txm.find([first.key]), txm.find([second.key])]);
    expect(a[0]?.status).toBe("mined");
    expect(b[0]?.status).toBe("replaced");
  });

  it("keeps watching a dropped transaction and records it mined when it lands with nothing sent in its place", async () => {
    const { txm, first, row } = await droppedTransfer();
    // A node that kept it passes it on, long after it was dropped here.
    await testChain.rpc("eth_sendRawTransaction", [row?.rawTx]);
    await testChain.mine();
    const finished = await txm.reconcile();
    expect(finished.map((r) => [r.key, r.status])).toEqual([[first.key, "mined"]]);
    const [landed] = await txm.find([first.key]);
    expect(landed?.error).toBe("landed after it was declared dropped");
    expect(BigInt(landed?.fee ?? 0)).toBeGreaterThan(0n);
  });

  it("ends a dropped transaction replaced, and stops watching it, once another one's use of its nonce is settled", async () => {
    const repo = new TransactionsRepository(database.db);
    const { txm, account, first } = await droppedTransfer();
    const next = transfer(account, fresh(), 2000n);
    await txm.send([next]);
    await txm.waitFinal([next.key], { pollMs: 200 });
    await testChain.rpc("anvil_mine", ["0x3"]);
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
    await expect(
      txm.send([{ ...transfer(account, to, 1000n), retries: first.key }]),
    ).rejects.toThrow(/another transaction holds nonce/);
    await txm.waitFinal([other.key], { pollMs: 200 });
    await testChain.rpc("anvil_mine", ["0x3"]);
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
    await testChain.rpc("eth_sendRawTransaction", [row?.rawTx]);
    await testChain.mine();
    await testChain.faults({});
    const third = { ...transfer(account, to, 1000n), retries: second.key };
    await expect(txm.send([third])).rejects.toThrow(/still on its way|landed/);
    await testChain.rpc("anvil_mine", ["0x3"]);
    await txm.waitFinal([second.key], { pollMs: 200 });
    expect((await txm.find([first.key]))[0]?.status).toBe("mined");
    expect((await txm.find([second.key]))[0]?.status).toBe("replaced");
    await expect(
      txm.send([{ ...transfer(account, to, 1000n), retries: first.key }]),
    ).rejects.toThrow(/which landed/);
    expect(await rows.byKeys([third.key])).toEqual([]);
    expect(await balance(to)).toBe(1000n);
  });

  it("records a retry that is byte for byte its dropped attempt on that attempt's row, under the new key, and sends it", async () => {
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
    expect(await txm.find([first.key])).toEqual([]);
    expect(await balance(to)).toBe(1000n);
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
    await testChain.faults({ refuseRawFrom: [payer.address] });
    const first = transfer(payer, middle.address, parseEther("0.1"));
    await txm.send([first]);
    const second = { ...transfer(middle, to, parseEther("0.05")), after: first.key };
    const [held] = await txm.send([second]);
    await txm.reconcile();
    const [waiting] = await rows.byKeys([second.key]);
    expect(waiting?.status).toBe("signed");
    expect(waiting?.lastBroadcastAt).toBeNull();
    expect(waiting?.afterId).toBe((await rows.byKeys([first.key]))[0]?.id);
    const known = await testChain.rpc("eth_getTransactionByHash", [held?.txHash]);
    expect(((await known.json()) as { result: unknown }).result).toBeNull();

    await testChain.faults({});
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
    const [failed, dropped] = await txm.waitFinal([first.key, second.key], {
      pollMs: 200,
      timeoutMs: 30_000,
    });
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
      chainId: testChain.chain.chainId,
      nonce: row?.nonce ?? 0,
      to: fresh(),
      value: 5n,
      gas: 21_000n,
      gasPrice: BigInt(row?.gasPrice ?? 0) * 2n,
    });
    await testChain.rpc("eth_sendRawTransaction", [other]);
    await testChain.mine();
    const [done] = await txm.waitFinal([intent.key], { pollMs: 200 });
    expect(done?.status).toBe("replaced");
    expect(done?.error).toMatch(/was used by another transaction/);
  });

  it("never broadcasts a bundle's transactions and drops them once the chain passes its window", async () => {
    const txm = manager();
    const account = await funded();
    const head = await testChain.chain.client.getBlockNumber();
    const raw = await bundleTx(account);
    await txm.recordBundle([{ key: "test:bundle", purpose: "launch", raw }], head + 1n);
    const [done] = await txm.waitFinal(["test:bundle"], { pollMs: 200 });
    expect(done?.status).toBe("dropped");
    expect(done?.error).toBe(`the bundle was not included by block ${head + 1n}`);
    expect(
      await testChain.chain.client
        .getTransactionReceipt({ hash: keccak256(raw) })
        .catch(() => null),
    ).toBeNull();
    expect(await testChain.chain.client.getTransactionCount({ address: account.address })).toBe(0);
  });

  it("decides again a transaction it saw mined in a block the chain then dropped", async () => {
    const txm = manager();
    const account = await funded();
    const head = await testChain.chain.client.getBlockNumber();
    const raw = await bundleTx(account);
    await txm.recordBundle([{ key: "test:dropped-block", purpose: "launch", raw }], head + 2n);
    // The block holding it is seen, then taken back (a one-block reorg).
    const { result: snapshot } = (await (await testChain.rpc("evm_snapshot", [])).json()) as {
      result: string;
    };
    await testChain.rpc("eth_sendRawTransaction", [raw]);
    await testChain.mine();
    await txm.reconcile();
    expect((await rows.byKeys(["test:dropped-block"]))[0]?.status).toBe("mined");
    await testChain.rpc("evm_revert", [snapshot]);
    await testChain.rpc("anvil_dropTransaction", [keccak256(raw)]);

    expect(await txm.recheck(["test:dropped-block"])).toEqual(["test:dropped-block"]);
    const [done] = await txm.waitFinal(["test:dropped-block"], { pollMs: 200 });
    expect(done?.status).toBe("dropped");
    expect(done?.blockNumber).toBeNull();
    expect(await testChain.chain.client.getTransactionCount({ address: account.address })).toBe(0);
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
    const head = await testChain.chain.client.getBlockNumber();
    await txm.recordBundle([{ key: "test:first-try", purpose: "launch", raw }], head + 1n);
    const [dropped] = await txm.waitFinal(["test:first-try"], { pollMs: 200 });
    expect(dropped?.status).toBe("dropped");

    // The same wallet signs the same call at the same nonce and price: the same bytes.
    const now = await testChain.chain.client.getBlockNumber();
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
    const head = await testChain.chain.client.getBlockNumber();
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
        new TransactionsRepository(database.db),
        { ...testChain.chain, rpcUrl: lagging.url },
        {},
      );
      const account = await funded();
      const intent = transfer(account, fresh(), 1000n);
      const [row] = await txm.send([intent]);
      hash = row?.txHash;
      await testChain.chain.client.waitForTransactionReceipt({
        hash: row?.txHash as Hex,
        pollingInterval: 100,
      });
      // Mined, and two more blocks on top: the nonce has been used for a while.
      await testChain.mine();
      await testChain.mine();
      await txm.reconcile();
      expect(lagging.lies()).toBe(1);
      const [done] = await txm.find([intent.key]);
      expect(done?.status).toBe("mined");
    } finally {
      await lagging.close();
    }
  });
});
