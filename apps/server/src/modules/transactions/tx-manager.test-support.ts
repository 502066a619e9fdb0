import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Address, type Hex, parseEther } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { Database } from "../../db/client.ts";
import { disarmFailpoints } from "../../lib/failpoints.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { createTestDatabase } from "../../test/database.ts";
import { TransactionsRepository } from "./transactions.repository.ts";
import { type TxIntent, TxManager } from "./tx-manager.ts";

export const fresh = () => privateKeyToAccount(generatePrivateKey()).address;

/**
 * A test chain and a database for one test file's transaction managers (started before its
 * tests, stopped after; failpoints and the builder's faults cleared after each test), and the
 * helpers that use them. `testChain` and `database` are getters: read them inside a test.
 */
export const useTxManagerTestbed = () => {
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
  /** A manager on the test chain, or reading it through `rpcUrl` (a proxy in front of it). */
  const manager = (options: ConstructorParameters<typeof TxManager>[2] = {}, rpcUrl?: string) =>
    new TxManager(
      new TransactionsRepository(database.db),
      rpcUrl ? { ...testChain.chain, rpcUrl } : testChain.chain,
      options,
    );

  const funded = async (bnb = "1") => {
    const account = privateKeyToAccount(generatePrivateKey());
    await testChain.rpc("anvil_setBalance", [account.address, `0x${parseEther(bnb).toString(16)}`]);
    return account;
  };

  const balance = (address: Address) => testChain.chain.client.getBalance({ address });
  /** A transfer of `value` at nonce 0, signed, for a bundle (recorded, never broadcast by us). */
  const bundleTx = (account: PrivateKeyAccount, value = 1n) =>
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
  const transfer = (account: PrivateKeyAccount, to: Address, value: bigint): TxIntent => ({
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
        if (
          call.method !== "eth_getTransactionReceipt" ||
          call.params[0] !== hash() ||
          lies >= times
        )
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

  return {
    get testChain() {
      return testChain;
    },
    get database() {
      return database;
    },
    rows,
    manager,
    funded,
    balance,
    bundleTx,
    transfer,
    droppedTransfer,
    laggingReceipts,
  };
};
