import { buyToken, prepareSell, sellToken } from "@bundler/chain";
import { LaunchpadManagerArtifact } from "@bundler/contracts";
import type { SellTransaction, TxStatusEntry } from "@bundler/shared";
import {
  type Address,
  createPublicClient,
  decodeFunctionData,
  type Hex,
  http,
  parseEther,
  parseEventLogs,
  parseGwei,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { armFailpoint, disarmFailpoints } from "../../lib/failpoints.ts";
import type { TestApp } from "../../test/app.ts";
import { launchBundle, setBalances, tokenBalance } from "../../test/bundles.ts";
import type { TestChain } from "../../test/chain.ts";
import { apiCaller } from "../../test/drafts-api.ts";
import { startTestbed, stopTestbed } from "../../test/testbed.ts";

// Sells go privately, as bundles, unless a request asks for the public pool; each sale has a
// floor, so a price moved against it between pricing and landing reverts it.
const masterKey = Buffer.alloc(32, 25);
let testChain: TestChain;
let app: TestApp;
let key: string;

beforeAll(async () => {
  ({ testChain, app, key } = await startTestbed(masterKey));
});
afterAll(() => stopTestbed({ app, testChain }));
afterEach(() => disarmFailpoints());

const call = apiCaller(
  () => app,
  () => key,
);
const sell = (token: Address, wallets: Address[], extra: Record<string, unknown> = {}) =>
  call("POST", "/api/bundle/wallets/sell", {
    address: token,
    wallets,
    amount: "100",
    isPercentage: true,
    ...extra,
  });
const client = () => testChain.chain.client;
/** For the other account's trades: polls its receipts at the test chain's block rhythm. */
const quickClient = () =>
  createPublicClient({ transport: http(testChain.chain.rpcUrl), pollingInterval: 100 });
const pendingInPool = async (): Promise<number> => {
  const answer = (await (await testChain.rpc("txpool_status", [])).json()) as {
    result: { pending: Hex };
  };
  return Number(BigInt(answer.result.pending));
};
const trading = () => {
  const { launchpad, trade } = testChain.chain;
  if (!launchpad || !trade) throw new Error("the test chain trades nowhere");
  return { launchpad, ...trade };
};

/**
 * Another account that bought `funds` of `token` and approved the launchpad, with its sale of
 * every token it holds signed at a higher gas price than ours: it goes first in a block.
 */
const frontrunner = async (token: Address, funds: bigint): Promise<Hex> => {
  const whale = privateKeyToAccount(generatePrivateKey());
  await setBalances(testChain, [[whale.address, funds + parseEther("1")]]);
  await buyToken(quickClient(), { ...trading(), account: whale, token, funds });
  // A first small sale approves the launchpad for good.
  const held = await tokenBalance(testChain, token, whale.address);
  await sellToken(quickClient(), { ...trading(), account: whale, token, amount: held / 100n });
  const sale = await prepareSell(client(), {
    ...trading(),
    account: whale,
    token,
    amount: await tokenBalance(testChain, token, whale.address),
  });
  return whale.signTransaction({
    type: "legacy",
    chainId: sale.chainId,
    nonce: sale.nonce,
    gas: sale.sale.gas,
    gasPrice: parseGwei("100"),
    ...sale.sale.request,
  });
};

/** A sell at a 1% floor whose block another account's large sale enters first. */
const frontrunSell = async () => {
  const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
  const wallet = bundle.wallets[0]?.address as Address;
  const held = await tokenBalance(testChain, bundle.token, wallet);
  await testChain.faults({
    frontrunNextBundle: [await frontrunner(bundle.token, parseEther("2"))],
  });
  const { status, body } = await sell(bundle.token, [wallet], { slippageBps: 100 });
  expect(status).toBe(200);
  const sale = (body.transactions as SellTransaction[]).find((t) => t.kind === "sell");
  return { bundle, wallet, held, sale: sale as SellTransaction, body };
};

describe("POST /api/bundle/wallets/sell, route bundle (the default)", () => {
  it("lands the request's approvals and sales in one block at once, none waiting in the pool", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 2 });
    const wallets = bundle.wallets.map((w) => w.address);
    await testChain.setBlockTime(0);
    try {
      const { status, body } = await sell(bundle.token, wallets);
      expect(status).toBe(200);
      expect(body.bundles).toBe(1);
      const txs = body.transactions as SellTransaction[];
      expect(txs.map((t) => [t.kind, t.status, t.route])).toEqual([
        ["approve", "pending", "bundle"],
        ["sell", "pending", "bundle"],
        ["approve", "pending", "bundle"],
        ["sell", "pending", "bundle"],
      ]);
      // No block was mined by the test: the builder mined the bundle as it took it.
      expect(await pendingInPool()).toBe(0);
      const receipts = await Promise.all(
        txs.map((t) => client().getTransactionReceipt({ hash: t.hash as Hex })),
      );
      expect(receipts.map((r) => r.status)).toEqual(txs.map(() => "success"));
      expect(new Set(receipts.map((r) => r.blockNumber)).size).toBe(1);
    } finally {
      await testChain.setBlockTime();
    }
    for (const wallet of wallets)
      expect(await tokenBalance(testChain, bundle.token, wallet)).toBe(0n);
  });

  it("answers each landed sale's tokens sold and BNB received on /bundle/tx/status, and nothing of the kind for its approval", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    const held = await tokenBalance(testChain, bundle.token, wallet);
    const { body } = await sell(bundle.token, [wallet]);
    const txs = body.transactions as SellTransaction[];
    const hashes = txs.map((t) => t.hash as Hex);
    for (const hash of hashes)
      await client().waitForTransactionReceipt({ hash, pollingInterval: 100 });
    await app.transactions?.reconcile();

    const { body: answer } = await call("POST", "/api/bundle/tx/status", { txHashes: hashes });
    const [approval, sale] = answer.statuses as TxStatusEntry[];
    expect(approval?.sale ?? null).toBeNull();
    expect(sale?.status).toBe("success");
    expect(sale?.sale?.tokens).toBe(held.toString());
    // Nobody traded in between: the sale fetched what its simulation said, above its floor.
    const fetched = parseEther(sale?.sale?.bnb ?? "0");
    expect(fetched).toBe(parseEther(txs[1]?.expectedOut ?? "-1"));
    expect(fetched).toBeGreaterThan(parseEther(txs[1]?.minOut ?? "0"));
  });

  it("says each sale's floor as what the wallet gets at least: the gross curve quote less the slippage, signed as minFunds (trade-guide §4.2), less the launchpad's fee on it", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const { body } = await sell(bundle.token, [bundle.wallets[0]?.address as Address], {
      slippageBps: 250,
    });
    const sale = (body.transactions as SellTransaction[]).find((t) => t.kind === "sell");
    const expected = parseEther(sale?.expectedOut ?? "0");
    expect(expected).toBeGreaterThan(0n);
    const hash = sale?.hash as Hex;
    const call = decodeFunctionData({
      abi: LaunchpadManagerArtifact.abi,
      data: (await client().getTransaction({ hash })).input,
    });
    const minFunds = call.args?.[3] as bigint;
    // The sale's gross and fee, as its TokenSale says (nothing moved since it was priced).
    const receipt = await client().waitForTransactionReceipt({ hash, pollingInterval: 100 });
    const [sold] = parseEventLogs({
      abi: LaunchpadManagerArtifact.abi,
      eventName: "TokenSale",
      logs: receipt.logs,
    });
    const gross = sold?.args.cost ?? 0n;
    expect(gross - (sold?.args.fee ?? 0n)).toBe(expected);
    expect(minFunds).toBe((gross * 9_750n) / 10_000n);
    expect(parseEther(sale?.minOut ?? "0")).toBe(minFunds - minFunds / 100n);
  });

  it("refuses a curve sale whose price fell past its floor before it landed, saying so, selling nothing", async () => {
    const { bundle, wallet, held, sale, body } = await frontrunSell();
    expect(body.bundles).toBe(0);
    expect(sale).toMatchObject({ status: "failed", route: "bundle" });
    expect(sale.error).toMatch(
      new RegExp(
        `^no builder took the bundle: builder local refused: the sale by wallet ${wallet} would fetch less than its floor \\(simulated \\d+\\.\\d{4} BNB, floor \\d+\\.\\d{4} BNB\\): the price moved by more than the 1% slippage`,
      ),
    );
    expect(body.totalTokens).toBe("0");
    expect(await tokenBalance(testChain, bundle.token, wallet)).toBe(held);
  });

  it("answers the refused sale failed on /bundle/tx/status with why, once its window passed", async () => {
    const { sale } = await frontrunSell();
    await expect
      .poll(
        async () => {
          await app.transactions?.reconcile();
          const { body } = await call("POST", "/api/bundle/tx/status", { txHashes: [sale.hash] });
          return (body.statuses as TxStatusEntry[])[0];
        },
        { timeout: 15_000 },
      )
      .toMatchObject({ hash: sale.hash, status: "failed" });
    const { body } = await call("POST", "/api/bundle/tx/status", { txHashes: [sale.hash] });
    expect((body.statuses as TxStatusEntry[])[0]?.reason).toMatch(
      /^the bundle was not included by block \d+: no builder took the bundle: builder local refused: the sale by wallet 0x[0-9a-fA-F]{40} would fetch less than its floor/,
    );
  });

  it("sends a bundle recorded before a crash when the same request comes again", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    armFailpoint("tx.recorded", "throw", 1);
    const crashed = await sell(bundle.token, [wallet], { requestId: "crashed-sell-1" });
    expect(crashed.status).toBe(500);
    const retry = await sell(bundle.token, [wallet], { requestId: "crashed-sell-1" });
    expect([retry.status, retry.body.bundles]).toEqual([200, 1]);
    for (const t of retry.body.transactions as SellTransaction[])
      expect((await client().getTransactionReceipt({ hash: t.hash as Hex })).status).toBe(
        "success",
      );
    expect(await tokenBalance(testChain, bundle.token, wallet)).toBe(0n);
  });

  it("sells again, as a new attempt, when the same request comes after its bundle was dropped", async () => {
    const { bundle, wallet, sale } = await frontrunSell();
    await expect
      .poll(
        async () => {
          await app.transactions?.reconcile();
          const { body } = await call("POST", "/api/bundle/tx/status", { txHashes: [sale.hash] });
          return (body.statuses as TxStatusEntry[])[0]?.status;
        },
        { timeout: 15_000 },
      )
      .toBe("failed");
    const again = await sell(bundle.token, [wallet], { slippageBps: 100 });
    const resold = (again.body.transactions as SellTransaction[]).find((t) => t.kind === "sell");
    expect(resold).toMatchObject({ status: "pending", route: "bundle" });
    expect(resold?.hash).not.toBe(sale.hash);
    expect((await client().getTransactionReceipt({ hash: resold?.hash as Hex })).status).toBe(
      "success",
    );
    expect(await tokenBalance(testChain, bundle.token, wallet)).toBe(0n);
  });

  it("refuses a slippage under 0.1% or over 50% with a 400", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    const low = await sell(bundle.token, [wallet], { slippageBps: 5 });
    expect([low.status, low.body.error]).toEqual([
      400,
      "Slippage must be at least 10 basis points (0.1%)",
    ]);
    const high = await sell(bundle.token, [wallet], { slippageBps: 5001 });
    expect([high.status, high.body.error]).toEqual([
      400,
      "Slippage must be at most 5000 basis points (50%)",
    ]);
  });
});

describe("POST /api/bundle/wallets/sell, route public", () => {
  it("broadcasts each transaction to the pool, where it waits for the next block", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    await testChain.setBlockTime(0);
    let txs: SellTransaction[] = [];
    try {
      const { body } = await sell(bundle.token, [wallet], { route: "public" });
      expect(body.bundles).toBe(0);
      txs = body.transactions as SellTransaction[];
      expect(txs.map((t) => [t.kind, t.status, t.route])).toEqual([
        ["approve", "pending", "public"],
        ["sell", "pending", "public"],
      ]);
      expect(await pendingInPool()).toBe(2);
      await testChain.mine();
    } finally {
      await testChain.setBlockTime();
    }
    for (const t of txs)
      expect((await client().getTransactionReceipt({ hash: t.hash as Hex })).status).toBe(
        "success",
      );
    expect(await tokenBalance(testChain, bundle.token, wallet)).toBe(0n);
  });
});
