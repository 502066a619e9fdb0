import type { Dispersal } from "@bundler/shared";
import { type Address, createWalletClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect } from "vitest";
import type { ChainContext } from "../../lib/chain-context.ts";
import type { LocalChain } from "../../lib/local-chain.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { accountFor, readDispersal } from "./dispersal-ledger.test-support.ts";

export const fresh = () => privateKeyToAccount(generatePrivateKey()).address;

/**
 * A test chain and an app with its dispersal engine for one test file (started before its
 * tests, stopped after), two users' keys, and the helpers that drive dispersals through the
 * API. `app`, `testChain` and `otherKey` are getters: read them inside a test.
 */
export const useDisperseTestbed = () => {
  let testChain: TestChain;
  let local: LocalChain;
  let chain: ChainContext;
  let app: TestApp;
  let key: string;
  let otherKey: string;
  const masterKey = Buffer.alloc(32, 9);

  const rpc = (method: string, params: unknown[]) => testChain.rpc(method, params);

  beforeAll(async () => {
    testChain = await startTestChain(masterKey);
    ({ local, chain } = testChain);
    app = await createTestApp({ chain, masterKey });
    key = await app.auth.mintKey("user");
    otherKey = await app.auth.mintKey("user");
  });
  afterAll(async () => {
    await app?.close();
    await testChain?.stop();
  });

  const call = async (method: "GET" | "POST", url: string, payload?: unknown, as = key) => {
    const response = await app.server.inject({
      method,
      url,
      headers: { "x-auth-key": as },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };

  const balance = (address: string) => chain.client.getBalance({ address: address as Address });

  /** A funded stranger who pays dispersals; answers what each payment cost in gas. */
  const payer = async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await rpc("anvil_setBalance", [account.address, `0x${parseEther("1000").toString(16)}`]);
    const wallet = createWalletClient({ account, transport: http(local.rpcUrl) });
    const pay = async (to: string, value: bigint) => {
      const hash = await wallet.sendTransaction({ chain: null, to: to as Address, value });
      await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
      return hash;
    };
    return { address: account.address, pay };
  };

  const create = async (wallets: string[], amounts: string[], antiBubblemaps: boolean) => {
    const created = await call("POST", "/api/wallets/disperse", {
      wallets,
      amounts,
      antiBubblemaps,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body as unknown as Dispersal;
  };

  const status = async (id: string) =>
    (await call("GET", `/api/wallets/disperse/status?dispersalId=${id}`))
      .body as unknown as Dispersal;

  /** Ticks the engine once per block until `done` holds (or fails the test after `blocks`). */
  const tickUntil = async (done: () => Promise<boolean>, blocks = 40) => {
    const engine = app.disperseEngine;
    if (!engine) throw new Error("no engine");
    let last = await chain.client.getBlockNumber();
    for (let i = 0; i < blocks * 10; i++) {
      await engine.tick();
      if (await done()) return;
      while ((await chain.client.getBlockNumber()) === last)
        await new Promise((r) => setTimeout(r, 100));
      last = await chain.client.getBlockNumber();
    }
    throw new Error("the dispersal did not get there in time");
  };

  const untilStatus = (id: string, ...wanted: Dispersal["status"][]) =>
    tickUntil(async () => wanted.includes((await status(id)).status));

  const ledger = (receiver: string) => readDispersal(app.database.db, receiver);

  /** Paid in = delivered + gas of every mined transfer + returns + refunds, to the wei. */
  const expectConservation = async (receiver: string, paidIn: bigint) => {
    const account = await accountFor(app.database.db, chain.client, receiver);
    expect(account.total).toBe(paidIn);
  };

  const expectRouteEmpty = async (receiver: string) => {
    const account = await accountFor(app.database.db, chain.client, receiver);
    expect(account.routeLeft).toBe(0n);
    return account.routeWallets;
  };

  return {
    get testChain() {
      return testChain;
    },
    get app() {
      return app;
    },
    get otherKey() {
      return otherKey;
    },
    rpc,
    call,
    balance,
    payer,
    create,
    status,
    tickUntil,
    untilStatus,
    ledger,
    expectConservation,
    expectRouteEmpty,
  };
};
