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

const manager = (options: ConstructorParameters<typeof TxManager>[2] = {}) =>
  new TxManager(new TransactionsRepository(database.db), testChain.chain, options);

const funded = async (bnb = "1") => {
  const account = privateKeyToAccount(generatePrivateKey());
  await testChain.rpc("anvil_setBalance", [account.address, `0x${parseEther(bnb).toString(16)}`]);
  return account;
};

const fresh = () => privateKeyToAccount(generatePrivateKey()).address;
const balance = (address: Address) => testChain.chain.client.getBalance({ address });
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
    const txm = manager({ dropAfterMs: 800, rebroadcastAfterMs: 200 });
    const account = await funded();
    await testChain.faults({ refuseRawFrom: [account.address] });
    const first = transfer(account, fresh(), 1000n);
    const [row] = await txm.send([first]);
    await txm.waitFinal([first.key], { pollMs: 200 });
    const second = transfer(account, fresh(), 2000n);
    const [reused] = await txm.send([second]);
    expect(reused?.nonce).toBe(row?.nonce);
    // Another node had the first one after all: it lands before the second.
    await testChain.rpc("eth_sendRawTransaction", [row?.rawTx]);
    await testChain.rpc("evm_mine", []);
    await testChain.faults({});
    await txm.waitFinal([second.key], { pollMs: 200 });
    const [a, b] = await Promise.all([txm.find([first.key]), txm.find([second.key])]);
    expect(a[0]?.status).toBe("mined");
    expect(b[0]?.status).toBe("replaced");
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
    await testChain.rpc("evm_mine", []);
    const [done] = await txm.waitFinal([intent.key], { pollMs: 200 });
    expect(done?.status).toBe("replaced");
    expect(done?.error).toMatch(/was used by another transaction/);
  });

  it("never broadcasts a bundle's transactions and drops them once the chain passes its window", async () => {
    const txm = manager();
    const account = await funded();
    const head = await testChain.chain.client.getBlockNumber();
    const raw = await account.signTransaction({
      type: "legacy",
      chainId: testChain.chain.chainId,
      nonce: 0,
      to: fresh(),
      value: 1n,
      gas: 21_000n,
      gasPrice: 10n ** 9n,
    });
    await txm.recordBundle([{ key: "test:bundle", purpose: "launch", raw: raw as Hex }], head + 1n);
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
});
