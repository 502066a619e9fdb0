import { buyToken } from "@bundler/chain";
import { LaunchpadManagerArtifact } from "@bundler/contracts";
import type { AutosellRule } from "@bundler/shared";
import { sql } from "drizzle-orm";
import {
  type Address,
  createPublicClient,
  formatEther,
  http,
  parseEther,
  parseEventLogs,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../db/client.ts";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { type LaunchedBundle, launchBundle, setBalances } from "../../test/bundles.ts";
import { startTestChain, type TestChain } from "../../test/chain.ts";
import { apiCaller } from "../../test/drafts-api.ts";

/**
 * Issue 29, "three processes on one Postgres with 50 rules: every firing once": three apps,
 * each with its own pool on one Postgres database (what three server processes share), run
 * the auto-sell pass at the same moments, block after block, over 50 rules of five bundles.
 * Every rule fires each of its tiers once, and every wallet sells once per firing that names
 * it, whichever process decided it and however many sent its wave. Postgres only: PGlite is
 * one process by design.
 */
const baseUrl = process.env.DATABASE_URL;
const masterKey = Buffer.alloc(32, 29);
const BUNDLES = 5;

let testChain: TestChain;
let apps: TestApp[] = [];
const pools: Database[] = [];
let key: string;

beforeAll(async () => {
  if (!baseUrl) return;
  testChain = await startTestChain(masterKey);
  const first = await createTestApp({ chain: testChain.chain, masterKey });
  apps = [first];
  for (let n = 1; n < 3; n++) {
    const database = await openDatabase({ databaseUrl: first.database.url, dataDir: null });
    pools.push(database);
    apps.push(await createTestApp({ chain: testChain.chain, masterKey, database }));
  }
  key = await first.auth.mintKey("user");
});
afterAll(async () => {
  // The first app drops the database: the others and their pools go first.
  for (const app of apps.slice(1)) await app.close();
  for (const pool of pools) await pool.close();
  await apps[0]?.close();
  await testChain?.stop();
});

const call = (n: number) =>
  apiCaller(
    () => apps[n] as TestApp,
    () => key,
  );
const client = () =>
  createPublicClient({ transport: http(testChain.chain.rpcUrl), pollingInterval: 100 });

/** Ten rules of a bundle whose market cap is `cap` now; answers the firings each should make. */
const rulesFor = (cap: bigint) => {
  const above = { type: "marketCap", atLeast: formatEther((cap * 110n) / 100n), unit: "BNB" };
  const sniped = { type: "outsideBuys", atLeastBnb: "0.2" };
  const soon = { type: "time", afterMinutes: 0.05 };
  const single = (trigger: unknown) => ({ rule: { trigger, action: { percent: 10 } }, tiers: 1 });
  return [
    ...[0, 1, 2].map(() => single({ any: [above] })),
    ...[0, 1, 2].map(() => single({ any: [sniped] })),
    ...[0, 1].map(() => single({ any: [soon] })),
    single({ all: [above, sniped] }),
    {
      rule: {
        action: {
          tiers: [
            { trigger: { any: [soon] }, percent: 10 },
            { trigger: { any: [above] }, percent: 10 },
          ],
        },
      },
      tiers: 2,
    },
  ];
};

/** Every sale of `token` on the chain, by seller (lowercase). */
const salesOf = async (token: Address, fromBlock: bigint) => {
  const logs = await client().getLogs({
    address: testChain.chain.launchpad as Address,
    fromBlock,
  });
  const counts = new Map<string, number>();
  for (const event of parseEventLogs({
    abi: LaunchpadManagerArtifact.abi,
    logs,
    eventName: "TokenSale",
  })) {
    const args = event.args as { token: Address; account: Address };
    if (args.token.toLowerCase() !== token.toLowerCase()) continue;
    const seller = args.account.toLowerCase();
    counts.set(seller, (counts.get(seller) ?? 0) + 1);
  }
  return counts;
};

/** Each process's per-block work, all three at once: receipts, the ledger, the rules. */
const passAll = async () => {
  await Promise.all(apps.map((app) => app.transactions?.reconcile()));
  await Promise.all(apps.map((app) => app.pnlLedger?.pass()));
  await Promise.all(apps.map((app) => app.autosellEngine?.pass()));
};

describe.skipIf(!baseUrl)("three processes running the auto-sell pass on one Postgres", () => {
  it("fires every one of 50 rules' tiers once and sells each wallet once per firing", async () => {
    const start = await client().getBlockNumber();
    const bundles: LaunchedBundle[] = [];
    for (let i = 0; i < BUNDLES; i++)
      bundles.push(await launchBundle(apps[0] as TestApp, testChain, key, { wallets: 2 }));
    const expected = new Map<string, number>();
    for (const [i, bundle] of bundles.entries()) {
      const cap = await apps[0]?.autosellEngine?.marketCapNow(bundle.token);
      for (const [j, { rule, tiers }] of rulesFor(cap?.wei ?? 0n).entries()) {
        const { status, body } = await call((i + j) % 3)("POST", "/api/bundle/rules", {
          address: bundle.token,
          ...rule,
        });
        expect(status, JSON.stringify(body)).toBe(200);
        expected.set((body.rule as AutosellRule).id, tiers);
      }
    }
    expect(expected.size).toBe(50);

    // An outside buyer passes every market cap and sniper guard.
    const buyer = privateKeyToAccount(generatePrivateKey());
    await setBalances(testChain, [[buyer.address, parseEther("20")]]);
    const { launchpad, trade } = testChain.chain;
    for (const bundle of bundles)
      await buyToken(client(), {
        account: buyer,
        launchpad: launchpad as Address,
        ...(trade as NonNullable<typeof trade>),
        token: bundle.token,
        funds: parseEther("1"),
      });

    const firings = async () =>
      (
        await apps[0]?.database.db.execute(
          sql`select rule_id, tier, state, error, transactions from autosell_firings`,
        )
      )?.rows as Array<{
        rule_id: string;
        tier: number;
        state: string;
        error: string | null;
        transactions: string[];
      }>;
    const total = [...expected.values()].reduce((a, b) => a + b, 0);
    const deadline = Date.now() + 90_000;
    for (;;) {
      await passAll();
      const rows = await firings();
      if (rows.length === total && rows.every((r) => r.state !== "selling")) break;
      if (Date.now() > deadline)
        throw new Error(
          `firings after 90 s: ${JSON.stringify(rows.filter((r) => r.state !== "sent"))}`,
        );
      const head = await client().getBlockNumber();
      while ((await client().getBlockNumber()) === head)
        await new Promise((resolve) => setTimeout(resolve, 100));
    }

    // Every tier of every rule once, every firing's sales sent.
    const rows = await firings();
    const perRule = new Map<string, number[]>();
    for (const r of rows) perRule.set(r.rule_id, [...(perRule.get(r.rule_id) ?? []), r.tier]);
    for (const [id, tiers] of expected)
      expect([...(perRule.get(id) ?? [])].sort(), `rule ${id}`).toEqual(
        Array.from({ length: tiers }, (_, t) => t),
      );
    expect(rows.filter((r) => r.state !== "sent")).toEqual([]);
    for (const hash of rows.flatMap((r) => r.transactions))
      await client().waitForTransactionReceipt({ hash: hash as `0x${string}`, timeout: 30_000 });

    // Each wallet sold once per firing of its bundle's rules: 11 firings a bundle.
    for (const bundle of bundles) {
      const sales = await salesOf(bundle.token, start);
      expect(bundle.wallets.map((w) => sales.get(w.address.toLowerCase()) ?? 0)).toEqual(
        bundle.wallets.map(() => 11),
      );
    }
  }, 300_000);
});
