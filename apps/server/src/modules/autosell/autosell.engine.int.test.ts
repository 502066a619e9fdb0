import { buyToken, sellToken } from "@bundler/chain";
import type { AutosellRule } from "@bundler/shared";
import { sql } from "drizzle-orm";
import { type Address, createPublicClient, formatEther, type Hex, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestApp } from "../../test/app.ts";
import {
  type LaunchedBundle,
  launchBundle,
  setBalances,
  tokenBalance,
} from "../../test/bundles.ts";
import type { TestChain } from "../../test/chain.ts";
import { apiCaller } from "../../test/drafts-api.ts";
import { startTestbed, stopTestbed } from "../../test/testbed.ts";

// Rules fire from what the chain says at a block, once, and sell through the exit path.
const masterKey = Buffer.alloc(32, 41);
let testChain: TestChain;
let app: TestApp;
let key: string;

beforeAll(async () => {
  ({ testChain, app, key } = await startTestbed(masterKey));
});
afterAll(() => stopTestbed({ app, testChain }));

const call = apiCaller(
  () => app,
  () => key,
);
const client = () => testChain.chain.client;
const quickClient = () =>
  createPublicClient({ transport: http(testChain.chain.rpcUrl), pollingInterval: 100 });
const trading = () => {
  const { launchpad, trade } = testChain.chain;
  if (!launchpad || !trade) throw new Error("the test chain trades nowhere");
  return { launchpad, ...trade };
};

/**
 * The per-block passes a block runs (the test app watches no blocks): receipts recorded, the
 * ledger appended, the rules read.
 */
const tick = async () => {
  await app.transactions?.reconcile();
  await app.pnlLedger?.pass();
  await app.autosellEngine?.pass();
};

/** Another account trading the token: buys for `funds`, sells a share of what it holds. */
const outsider = async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  await setBalances(testChain, [[account.address, parseEther("20")]]);
  const blockOf = async (hash: Hex) => (await client().getTransactionReceipt({ hash })).blockNumber;
  return {
    address: account.address,
    buy: async (token: Address, bnb: string) =>
      blockOf(
        (await buyToken(quickClient(), { ...trading(), account, token, funds: parseEther(bnb) }))
          .hash,
      ),
    sellShare: async (token: Address, share: bigint) => {
      const held = await tokenBalance(testChain, token, account.address);
      const amount = ((held * share) / 100n / 10n ** 9n) * 10n ** 9n;
      return blockOf(
        (await sellToken(quickClient(), { ...trading(), account, token, amount })).hashes.at(
          -1,
        ) as Hex,
      );
    },
  };
};

const arm = async (token: Address, rule: Record<string, unknown>): Promise<AutosellRule> => {
  const { status, body } = await call("POST", "/api/bundle/rules", { address: token, ...rule });
  if (status !== 200) throw new Error(`create rule: ${JSON.stringify(body)}`);
  return body.rule as AutosellRule;
};
const rulesOf = async (token: Address): Promise<AutosellRule[]> => {
  const { body } = await call("GET", `/api/bundle/rules?address=${token}`);
  return body.rules as AutosellRule[];
};
const ruleOf = async (token: Address, id: string) =>
  (await rulesOf(token)).find((r) => r.id === id) as AutosellRule;
/** Waits until the rule's firing for `tier` sent every wave. */
const sentFiring = (token: Address, id: string, tier = 0) =>
  vi.waitFor(
    async () => {
      await tick();
      const rule = await ruleOf(token, id);
      const firing = rule.firings.find((f) => f.tier === tier);
      if (firing?.state !== "sent")
        throw new Error(
          `firing: ${JSON.stringify(firing)}, reading ${JSON.stringify(rule.reading)}`,
        );
      return { rule, firing };
    },
    { timeout: 30_000, interval: 200 },
  );
/** Waits for a pass to read the rule at `block` or later. */
const readAt = (token: Address, id: string, block: bigint) =>
  vi.waitFor(
    async () => {
      await tick();
      const rule = await ruleOf(token, id);
      if (!rule.reading || BigInt(rule.reading.block) < block)
        throw new Error(`reading: ${JSON.stringify(rule.reading)}`);
      return rule;
    },
    { timeout: 20_000, interval: 100 },
  );
const blocksOf = async (hashes: string[]) => {
  const receipts = await Promise.all(
    hashes.map((hash) =>
      client().waitForTransactionReceipt({ hash: hash as Hex, timeout: 20_000 }),
    ),
  );
  expect(receipts.map((r) => r.status)).toEqual(hashes.map(() => "success"));
  return new Set(receipts.map((r) => r.blockNumber));
};
const holdings = (bundle: LaunchedBundle) =>
  Promise.all(bundle.wallets.map((w) => tokenBalance(testChain, bundle.token, w.address)));

describe("the auto-sell pass", () => {
  it("fires a market-cap rule once the cap passes its value, sells every bundle wallet in one block, and never again", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 3 });
    const cap = await app.autosellEngine?.marketCapNow(bundle.token);
    const target = formatEther(((cap?.wei ?? 0n) * 12n) / 10n);
    const rule = await arm(bundle.token, {
      trigger: { any: [{ type: "marketCap", atLeast: target, unit: "BNB" }] },
      action: { percent: 100 },
    });
    const whale = await outsider();
    const pumped = await whale.buy(bundle.token, "2");
    const { rule: fired, firing } = await sentFiring(bundle.token, rule.id);
    expect(fired.state).toBe("fired");
    expect(BigInt(firing.block)).toBeGreaterThanOrEqual(pumped);
    expect(firing.reading.conditions[0]?.text).toMatch(/^market cap \d+\.\d{4} BNB of /);
    const blocks = await blocksOf(firing.transactions);
    expect(blocks.size).toBe(1);
    expect([...blocks][0]).toBeLessThanOrEqual(BigInt(firing.block) + 2n);
    expect(await holdings(bundle)).toEqual([0n, 0n, 0n]);

    // The cap falls and rises again: nothing more is decided.
    const fell = await whale.sellShare(bundle.token, 100n);
    await whale.buy(bundle.token, "1");
    await vi.waitFor(async () => {
      await tick();
      const { rows } = await app.database.db.execute(
        sql`select count(*)::int as n from autosell_firings where rule_id = ${rule.id}`,
      );
      expect((rows[0] as { n: number }).n).toBe(1);
      expect(await client().getBlockNumber()).toBeGreaterThan(fell + 3n);
    });
    expect((await ruleOf(bundle.token, rule.id)).firings).toHaveLength(1);
  });

  it("fires a sniper guard once outside net buying passes its value, not on the bundle's own buys", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 2, buy: "0.6" });
    const rule = await arm(bundle.token, {
      trigger: { any: [{ type: "outsideBuys", atLeastBnb: "1" }] },
      action: { percent: 50 },
    });
    const sniper = await outsider();
    const first = await sniper.buy(bundle.token, "0.6");
    const read = await readAt(bundle.token, rule.id, first);
    expect(read.state).toBe("armed");
    expect(read.reading?.conditions[0]?.text).toBe(
      "outside buys 0.6000 BNB net since launch, of 1 BNB",
    );
    const before = await holdings(bundle);
    await sniper.buy(bundle.token, "0.6");
    const { firing } = await sentFiring(bundle.token, rule.id);
    expect(firing.reading.conditions[0]?.text).toBe(
      "outside buys 1.2000 BNB net since launch, of 1 BNB",
    );
    await blocksOf(firing.transactions);
    const after = await holdings(bundle);
    // Half of each wallet's tokens, to the curve's rounding of a sale (whole gwei units).
    after.forEach((held, i) => {
      const was = before[i] as bigint;
      expect(was - held).toBeGreaterThanOrEqual(was / 2n - 10n ** 9n);
      expect(was - held).toBeLessThanOrEqual(was / 2n);
    });
  });

  it("fires a stop loss when an outside sell drops the exit value below half the cost", async () => {
    // Small buys: the launch's fixed costs (its tip, the creation fee) are most of the cost.
    const bundle = await launchBundle(app, testChain, key, {
      wallets: 1,
      buy: "0.004",
      preSale: "0.004",
    });
    const whale = await outsider();
    const pumped = await whale.buy(bundle.token, "3");
    const rule = await arm(bundle.token, {
      trigger: { any: [{ type: "stopLoss", pnlPercent: -50 }] },
      action: { percent: 100 },
    });
    const high = await readAt(bundle.token, rule.id, pumped);
    expect(high.state).toBe("armed");
    const before = Number(high.reading?.conditions[0]?.text.match(/value ([-+]\d+\.\d+)%/)?.[1]);
    expect(before).toBeGreaterThan(-50);
    await whale.sellShare(bundle.token, 100n);
    const { firing } = await sentFiring(bundle.token, rule.id);
    const pnl = Number(firing.reading.conditions[0]?.text.match(/value (-\d+\.\d+)%/)?.[1]);
    expect(pnl).toBeLessThanOrEqual(-50);
    await blocksOf(firing.transactions);
    expect(await holdings(bundle)).toEqual([0n]);
  });

  it("arms a trailing stop, follows the high, and fires on the drawdown", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 2 });
    const rule = await arm(bundle.token, {
      trigger: { any: [{ type: "trailing", dropPercent: 30 }] },
      action: { percent: 100 },
    });
    const peakOf = async () => {
      const { rows } = await app.database.db.execute(
        sql`select peak_wei::text as peak from autosell_rules where id = ${rule.id}`,
      );
      return BigInt((rows[0] as { peak: string | null }).peak ?? "0");
    };
    const whale = await outsider();
    await readAt(bundle.token, rule.id, await whale.buy(bundle.token, "1"));
    const first = await peakOf();
    await readAt(bundle.token, rule.id, await whale.buy(bundle.token, "1"));
    const second = await peakOf();
    expect(second).toBeGreaterThan(first);
    expect((await ruleOf(bundle.token, rule.id)).state).toBe("armed");
    await whale.sellShare(bundle.token, 100n);
    const { firing } = await sentFiring(bundle.token, rule.id);
    expect(firing.reading.conditions[0]?.text).toMatch(/under its high/);
    await blocksOf(firing.transactions);
    expect(await holdings(bundle)).toEqual([0n, 0n]);
  });

  it("counts a timed exit's minutes from the launch's block, not from 1970", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const rule = await arm(bundle.token, {
      trigger: { any: [{ type: "time", afterMinutes: 60 }] },
      action: { percent: 100 },
    });
    const read = await readAt(bundle.token, rule.id, await client().getBlockNumber());
    expect(read.state).toBe("armed");
    expect(read.reading?.conditions[0]?.text).toMatch(/: (59|60) min left$/);
  });
});
