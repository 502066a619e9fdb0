import type { SellTransaction, TxStatusEntry } from "@bundler/shared";
import { sql } from "drizzle-orm";
import {
  type Address,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  type LocalAccount,
  parseEther,
} from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { armFailpoint, disarmFailpoints } from "../../lib/failpoints.ts";
import type { TestApp } from "../../test/app.ts";
import { graduate, launchBundle, tokenBalance } from "../../test/bundles.ts";
import type { TestChain } from "../../test/chain.ts";
import { apiCaller } from "../../test/drafts-api.ts";
import { startTestbed, stopTestbed } from "../../test/testbed.ts";
import { formatTokens } from "./sell-amounts.ts";

const masterKey = Buffer.alloc(32, 22);
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
const held = (token: Address, owner: Address) => tokenBalance(testChain, token, owner);
const receipt = (hash: string | null) => {
  if (!hash) throw new Error("no transaction was sent");
  return testChain.chain.client.waitForTransactionReceipt({
    hash: hash as Hex,
    pollingInterval: 200,
    timeout: 15_000,
  });
};
const sells = (txs: SellTransaction[]) => txs.filter((t) => t.kind === "sell" && t.hash);
const chainTxCount = async () => {
  const { rows } = await app.database.db.execute(sql`select count(*)::int as n from chain_txs`);
  return (rows[0] as { n: number }).n;
};
const sell = (
  token: Address,
  wallets: Address[],
  amount: string,
  isPercentage = true,
  extra: { route?: "bundle" | "public"; slippageBps?: number } = {},
) =>
  call("POST", "/api/bundle/wallets/sell", {
    address: token,
    wallets,
    amount,
    isPercentage,
    ...extra,
  });
/** A public sell: each transaction to the node's pool, as before sells went in bundles. */
const publicly = { route: "public" } as const;
const withoutExpected = (txs: SellTransaction[]) => txs.map(({ expectedOut: _, ...t }) => t);

describe("POST /api/bundle/wallets/sell", () => {
  it("sells 100% from every selected wallet and reports the one holding nothing as its own failure", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 3, idle: [1] });
    const [a, idle, c] = bundle.wallets.map((w) => w.address) as [Address, Address, Address];
    const before = [await held(bundle.token, a), await held(bundle.token, c)];
    const { status, body } = await sell(bundle.token, [a, idle, c], "100");
    expect(status).toBe(200);
    const txs = body.transactions as SellTransaction[];
    expect(txs.map((t) => [t.from, t.kind, t.status])).toEqual([
      [a, "approve", "pending"],
      [a, "sell", "pending"],
      [idle, "sell", "failed"],
      [c, "approve", "pending"],
      [c, "sell", "pending"],
    ]);
    expect(txs[2]).toMatchObject({ hash: null, error: `wallet ${idle} holds none of this token` });
    expect(txs[1]?.amount).toBe(formatTokens(before[0] as bigint));
    expect(body.totalTokens).toBe(formatTokens((before[0] as bigint) + (before[1] as bigint)));
    for (const t of txs.filter((t) => t.hash))
      expect((await receipt(t.hash)).status).toBe("success");
    expect(await held(bundle.token, a)).toBe(0n);
    expect(await held(bundle.token, c)).toBe(0n);
  });

  it("sells a token amount from the others when one wallet holds only dust (1 wei), which it never asks to sell", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 2, idle: [1] });
    const [giver, dusty] = bundle.wallets as [LocalAccount, LocalAccount];
    const hash = await createWalletClient({
      account: giver,
      transport: http(testChain.local.rpcUrl),
    }).writeContract({
      chain: null,
      address: bundle.token,
      abi: erc20Abi,
      functionName: "transfer",
      args: [dusty.address, 1n],
    });
    await receipt(hash);
    // Enough tokens that the sale fetches more than the launchpad's minimum fee (else "SO").
    const { status, body } = await sell(
      bundle.token,
      [giver.address, dusty.address],
      "100000",
      false,
    );
    expect(status, JSON.stringify(body)).toBe(200);
    const txs = body.transactions as SellTransaction[];
    expect(txs.map((t) => [t.from, t.kind, t.status])).toEqual([
      [giver.address, "approve", "pending"],
      [giver.address, "sell", "pending"],
      [dusty.address, "sell", "failed"],
    ]);
    expect(txs[2]).toMatchObject({
      hash: null,
      error: `wallet ${dusty.address} holds only dust of this token (1 wei), less than a sale can take`,
    });
  });

  it("sells half of each wallet's balance at 50 percent, with no second approval", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    const start = await held(bundle.token, wallet);
    const first = await sell(bundle.token, [wallet], "50");
    for (const t of first.body.transactions as SellTransaction[]) await receipt(t.hash);
    expect(await held(bundle.token, wallet)).toBe(start - start / 2n);
    const second = await sell(bundle.token, [wallet], "50");
    const txs = second.body.transactions as SellTransaction[];
    expect(txs.map((t) => t.kind)).toEqual(["sell"]);
    await receipt(txs[0]?.hash ?? null);
    const left = start - start / 2n;
    expect(await held(bundle.token, wallet)).toBe(left - left / 2n);
  });

  it("refuses 0 percent with a 400 and sends nothing", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const count = await chainTxCount();
    const { status, body } = await sell(bundle.token, [bundle.wallets[0]?.address as Address], "0");
    expect(status).toBe(400);
    expect(body.error).toBe("Percent must be more than 0 and at most 100 (got 0)");
    expect(await chainTxCount()).toBe(count);
  });

  it("refuses 101 percent with a 400 and sends nothing", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    const before = await held(bundle.token, wallet);
    const count = await chainTxCount();
    const { status, body } = await sell(bundle.token, [wallet], "101");
    expect(status).toBe(400);
    expect(body.error).toBe("Percent must be more than 0 and at most 100 (got 101)");
    expect(await chainTxCount()).toBe(count);
    expect(await held(bundle.token, wallet)).toBe(before);
  });

  it("refuses a token amount above a wallet's balance, naming the wallet, and sends nothing", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 2, buy: "0.01" });
    const [small, big] = bundle.wallets.map((w) => w.address) as [Address, Address];
    const count = await chainTxCount();
    const asked = (await held(bundle.token, small)) + parseEther("1");
    const { status, body } = await sell(
      bundle.token,
      [big, small],
      (Number(asked / 10n ** 18n) + 1).toString(),
      false,
    );
    expect(status).toBe(400);
    expect(body.error).toMatch(new RegExp(`^Wallet (${small}|${big}) holds only [\\d,.]+ tokens`));
    expect(await chainTxCount()).toBe(count);
  });

  it("refuses to sell an X Mode token, saying why, sending and recording nothing (four-meme-ai errors.md)", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    await testChain.setTokenKind(bundle.token, { template: 0x10000n });
    const txs = await chainTxCount();
    const { status, body } = await sell(bundle.token, [wallet], "100");
    expect(status).toBe(400);
    expect(body.error).toBe(
      `Token ${bundle.token} cannot be sold here: it is an X Mode token: four.meme sells it only through buys its own API signs, which this app does not make`,
    );
    expect(await chainTxCount()).toBe(txs);
  });

  it("refuses to sell a TokenManager V1 token, saying why (integration-guide §3)", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    await testChain.setTokenKind(bundle.token, { version: 1n });
    const { status, body } = await sell(
      bundle.token,
      [bundle.wallets[0]?.address as Address],
      "50",
    );
    expect(status).toBe(400);
    expect(body.error).toBe(
      `Token ${bundle.token} cannot be sold here: it was launched on four.meme's first TokenManager (V1, before 2024-09-05), whose trades this app does not make`,
    );
  });

  it("sells the same token amount from each wallet", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 2 });
    const wallets = bundle.wallets.map((w) => w.address);
    const before = await Promise.all(wallets.map((w) => held(bundle.token, w)));
    // Enough to fetch more than the launchpad's fee: a smaller sale reverts SO.
    const { body } = await sell(bundle.token, wallets, "100000.5", false);
    for (const t of body.transactions as SellTransaction[]) await receipt(t.hash);
    expect(body.totalTokens).toBe("200,001");
    for (const [i, w] of wallets.entries())
      expect(await held(bundle.token, w)).toBe((before[i] as bigint) - parseEther("100000.5"));
  });

  it("sells a graduated token through the DEX router", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    await graduate(testChain, bundle.token);
    const bnbBefore = await testChain.chain.client.getBalance({ address: wallet });
    const { body } = await sell(bundle.token, [wallet], "100");
    const [sale] = sells(body.transactions as SellTransaction[]);
    const mined = await receipt(sale?.hash ?? null);
    expect(mined.status).toBe("success");
    expect(mined.to?.toLowerCase()).toBe(testChain.chain.trade?.router.toLowerCase());
    expect(await held(bundle.token, wallet)).toBe(0n);
    expect(await testChain.chain.client.getBalance({ address: wallet })).toBeGreaterThan(bnbBefore);
    const listed = await call("GET", "/api/auth/bundles");
    const row = (listed.body.bundles as Array<{ address: string; tradeUrl: string | null }>).find(
      (b) => b.address === bundle.token,
    );
    expect(row?.tradeUrl).toBe(`/wallets/${bundle.token}`);
  });

  it("answers a double click with the first click's transactions, selling once", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 2 });
    const wallets = bundle.wallets.map((w) => w.address);
    const count = await chainTxCount();
    const [first, second] = await Promise.all([
      sell(bundle.token, wallets, "40"),
      sell(bundle.token, wallets, "40"),
    ]);
    const hashes = (r: typeof first) =>
      (r.body.transactions as SellTransaction[]).map((t) => t.hash);
    expect(hashes(second)).toEqual(hashes(first));
    // A click answered from the first's record no longer knows the simulated proceeds.
    expect(withoutExpected(second.body.transactions as SellTransaction[])).toEqual(
      withoutExpected(first.body.transactions as SellTransaction[]),
    );
    expect(second.body.totalTokens).toBe(first.body.totalTokens);
    expect(await chainTxCount()).toBe(count + 4);
  });

  it("refuses a second, different sell from a wallet whose public sell is not mined yet, as that wallet's failure", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    await testChain.setBlockTime(0);
    try {
      const first = await sell(bundle.token, [wallet], "50", true, publicly);
      const [pending] = sells(first.body.transactions as SellTransaction[]);
      const second = await sell(bundle.token, [wallet], "30", true, publicly);
      expect(second.status).toBe(200);
      expect(second.body.transactions).toEqual([
        {
          hash: null,
          from: wallet,
          amount: "0",
          kind: "sell",
          status: "failed",
          error: expect.stringMatching(
            new RegExp(`^wallet ${wallet} has a transaction in flight \\(0x[0-9a-f]{64}\\)`),
          ),
          route: "public",
          minOut: null,
          expectedOut: null,
        },
      ]);
      expect(pending?.hash).toBeTruthy();
    } finally {
      await testChain.setBlockTime();
    }
  });

  it("sends one of two different sells of one wallet arriving at the same instant, and refuses the other", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    const count = await chainTxCount();
    const answers = await Promise.all([
      sell(bundle.token, [wallet], "50"),
      sell(bundle.token, [wallet], "30"),
    ]);
    const entries = answers.map((a) => a.body.transactions as SellTransaction[]);
    const sent = entries.filter((txs) => sells(txs).length === 1);
    const refused = entries.filter((txs) => txs[0]?.status === "failed");
    expect(sent).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.[0]?.error).toMatch(
      new RegExp(
        `^wallet ${wallet} has a transaction in a bundle not settled yet \\(0x[0-9a-f]{64}\\)`,
      ),
    );
    const sentTxs = sent[0] as SellTransaction[];
    expect(await chainTxCount()).toBe(count + sentTxs.length);
    for (const tx of sentTxs) expect((await receipt(tx.hash)).status).toBe("success");
  });

  it("sends a public sell recorded before a crash once: a retry answers it and the manager broadcasts it", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    armFailpoint("tx.recorded", "throw", 1);
    const crashed = await sell(bundle.token, [wallet], "100", true, publicly);
    expect(crashed.status).toBe(500);
    const count = await chainTxCount();
    const retry = await sell(bundle.token, [wallet], "100", true, publicly);
    expect(retry.status).toBe(200);
    expect(await chainTxCount()).toBe(count);
    const [sale] = sells(retry.body.transactions as SellTransaction[]);
    const status = await call("POST", "/api/bundle/tx/status", { txHashes: [sale?.hash] });
    expect((status.body.statuses as TxStatusEntry[])[0]?.status).toBe("pending");
    await app.transactions?.reconcile();
    expect((await receipt(sale?.hash ?? null)).status).toBe("success");
    expect(await held(bundle.token, wallet)).toBe(0n);
  });
});

describe("POST /api/bundle/developer/sell", () => {
  it("sells the developer wallet's tokens, its approval listed first", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const developer = bundle.deployer.address;
    const before = await held(bundle.token, developer);
    expect(before).toBeGreaterThan(0n);
    const { status, body } = await call("POST", "/api/bundle/developer/sell", {
      address: bundle.token,
      amount: "100",
      isPercentage: true,
    });
    expect(status).toBe(200);
    const sale = body.transaction as SellTransaction;
    expect(sale).toMatchObject({ from: developer, kind: "sell", status: "pending" });
    expect(sale.amount).toBe(formatTokens(before));
    expect((body.transactions as SellTransaction[]).map((t) => t.kind)).toEqual(["approve"]);
    expect((await receipt(sale.hash)).status).toBe("success");
    expect(await held(bundle.token, developer)).toBe(0n);
  });
});

describe("POST /api/bundle/tx/status for a sell", () => {
  it("answers a public sell's record: pending until mined, then success", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const tokens = await held(bundle.token, bundle.wallets[0]?.address as Address);
    await testChain.setBlockTime(0);
    let hash: string | null | undefined;
    try {
      const { body } = await sell(
        bundle.token,
        [bundle.wallets[0]?.address as Address],
        "100",
        true,
        publicly,
      );
      hash = sells(body.transactions as SellTransaction[])[0]?.hash;
      const pending = await call("POST", "/api/bundle/tx/status", { txHashes: [hash] });
      expect(pending.body.statuses).toEqual([
        { hash, status: "pending", blockNumber: null, reason: null, sale: null },
      ]);
    } finally {
      await testChain.setBlockTime();
    }
    const mined = await receipt(hash ?? null);
    // Mined once its receipt is two blocks deep (the manager's confirmations), a few passes on.
    await expect
      .poll(
        async () => {
          await app.transactions?.reconcile();
          return (await call("POST", "/api/bundle/tx/status", { txHashes: [hash] })).body.statuses;
        },
        { timeout: 10_000 },
      )
      .toEqual([
        {
          hash,
          status: "success",
          blockNumber: mined.blockNumber.toString(),
          reason: null,
          sale: { tokens: tokens.toString(), bnb: expect.stringMatching(/^0\.\d+$/) },
        },
      ]);
  });

  it("answers failed with the revert reason when the token graduated before a public curve sell landed", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const wallet = bundle.wallets[0]?.address as Address;
    // The sell is priced for the curve; the graduating buy lands first in the same block.
    await testChain.setBlockTime(0);
    let hash: string | null | undefined;
    try {
      const graduating = graduate(testChain, bundle.token);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const { body } = await sell(bundle.token, [wallet], "100", true, publicly);
      hash = sells(body.transactions as SellTransaction[])[0]?.hash;
      await testChain.mine();
      await graduating;
    } finally {
      await testChain.setBlockTime();
    }
    expect((await receipt(hash ?? null)).status).toBe("reverted");
    await app.transactions?.reconcile();
    const { body } = await call("POST", "/api/bundle/tx/status", { txHashes: [hash] });
    const [entry] = body.statuses as TxStatusEntry[];
    expect(entry).toMatchObject({ hash, status: "failed" });
    expect(entry?.reason).toBe(
      "trading is closed on the launchpad for this token (it graduated to the DEX, or has not opened yet)",
    );
  });
});
