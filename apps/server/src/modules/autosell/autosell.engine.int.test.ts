import { sql } from "drizzle-orm";
import { formatEther, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TestApp } from "../../test/app.ts";
import { autosellKit } from "../../test/autosell.ts";
import { type LaunchedBundle, launchBundle, tokenBalance } from "../../test/bundles.ts";
import type { TestChain } from "../../test/chain.ts";
import { startTestbed, stopTestbed } from "../../test/testbed.ts";
import { type ArmedRule, AutosellPassRepository } from "./autosell-pass.repository.ts";

// Rules fire from what the chain says at a block, once, and sell through the exit path.
const masterKey = Buffer.alloc(32, 41);
let testChain: TestChain;
let app: TestApp;
let key: string;

beforeAll(async () => {
  ({ testChain, app, key } = await startTestbed(masterKey));
});
afterAll(() => stopTestbed({ app, testChain }));

const { call, client, tick, outsider, arm, ruleOf, sentFiring, readAt } = autosellKit(() => ({
  testChain,
  app,
  key,
}));
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
    // The chain waits for the pass (a pass on a busy machine outlasts several 0.2 s blocks): the
    // decision's block is the head, and its sales must land in the very next one.
    await testChain.setBlockTime(0);
    try {
      const { rule: fired, firing } = await sentFiring(bundle.token, rule.id);
      expect(fired.state).toBe("fired");
      expect(BigInt(firing.block)).toBeGreaterThanOrEqual(pumped);
      expect(firing.reading.conditions[0]?.text).toMatch(/^market cap \d+\.\d{4} BNB of /);
      const blocks = await blocksOf(firing.transactions);
      expect([...blocks]).toEqual([BigInt(firing.block) + 1n]);
    } finally {
      await testChain.setBlockTime();
    }
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

describe("a firing that cannot finish, or is stopped", () => {
  it("gives a wave up after 10 failed attempts, and the firing says why", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const rule = await arm(bundle.token, {
      trigger: { any: [{ type: "stopLoss", pnlPercent: -99 }] },
      action: { percent: 100 },
    });
    // A firing whose sale can never be made: its percent is no decimal the sale can read (as a
    // rule armed before percents had 2 decimals at most would have recorded it).
    await app.database.db.execute(sql`
      update autosell_rules set state = 'fired' where id = ${rule.id}`);
    await app.database.db.execute(sql`
      insert into autosell_firings (rule_id, tier, block_number, reading, percent, wallets, next_block)
      values (${rule.id}, 0, 1, ${JSON.stringify({ block: "1", conditions: [] })}::jsonb, '1e-7',
        ${JSON.stringify(bundle.wallets.map((w) => w.address.toLowerCase()))}::jsonb, 1)`);
    const firing = await vi.waitFor(
      async () => {
        await tick();
        const found = (await ruleOf(bundle.token, rule.id)).firings[0];
        if (found?.state !== "failed") throw new Error(`firing: ${JSON.stringify(found)}`);
        return found;
      },
      { timeout: 30_000, interval: 200 },
    );
    expect(firing.error).toMatch(/^Gave up after 10 attempts \(the last at block \d+\): .+/);
    expect(firing.transactions).toEqual([]);
  });

  it("sends a wave again when no builder takes its bundle, and sells each wallet once", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 2 });
    const rule = await arm(bundle.token, {
      trigger: { any: [{ type: "curveProgress", atLeastPercent: 0.01 }] },
      action: { percent: 100 },
    });
    // The builder refuses the firing's bundle, and the same bundle sent again while its window
    // is open: the wave goes again until its sales land.
    await testChain.faults({ failMethod: { method: "eth_sendBundle", times: 2 } });
    try {
      const firing = await vi.waitFor(
        async () => {
          await tick();
          const found = (await ruleOf(bundle.token, rule.id)).firings[0];
          if (found?.state !== "sent") throw new Error(`firing: ${JSON.stringify(found)}`);
          return found;
        },
        { timeout: 60_000, interval: 200 },
      );
      expect(firing.error).toBeNull();
      expect(await holdings(bundle)).toEqual([0n, 0n]);
      // Every sale of the firing's transactions that landed is one per wallet.
      const receipts = await Promise.all(
        firing.transactions.map((hash) =>
          client()
            .getTransactionReceipt({ hash: hash as Hex })
            .catch(() => null),
        ),
      );
      const sellers = receipts.flatMap((r) => (r?.status === "success" ? [r.from] : []));
      expect(new Set(sellers).size).toBe(2);
    } finally {
      await testChain.faults({});
    }
  });

  it("sells again when a builder took the firing's bundle and never landed it, each wallet once", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 2 });
    const rule = await arm(bundle.token, {
      trigger: { any: [{ type: "curveProgress", atLeastPercent: 0.01 }] },
      action: { percent: 100 },
    });
    await testChain.faults({ acceptWithoutLanding: 1 });
    try {
      // Sent: the builder answered as it does for a bundle it took.
      const sent = await sentFiring(bundle.token, rule.id);
      expect(sent.firing.error).toBeNull();
      // Its window passes without it: its sales drop, and the firing sells again.
      const firing = await vi.waitFor(
        async () => {
          await tick();
          const found = (await ruleOf(bundle.token, rule.id)).firings[0];
          if (found?.state !== "sent" || (await holdings(bundle)).some((h) => h > 0n))
            throw new Error(`firing: ${JSON.stringify(found)}`);
          return found;
        },
        { timeout: 60_000, interval: 200 },
      );
      const receipts = await Promise.all(
        firing.transactions.map((hash) => client().getTransactionReceipt({ hash: hash as Hex })),
      );
      const sellers = receipts.filter((r) => r.status === "success").map((r) => r.from);
      expect(new Set(sellers).size).toBe(2);
    } finally {
      await testChain.faults({});
    }
  });

  it("sends no further wave once the rule is cancelled while its firing is selling", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 2 });
    const cap = await app.autosellEngine?.marketCapNow(bundle.token);
    const rule = await arm(bundle.token, {
      trigger: {
        any: [{ type: "marketCap", atLeast: formatEther(((cap?.wei ?? 0n) * 12n) / 10n) }],
      },
      action: { percent: 100 },
      execution: { spreadBlocks: 2 },
    });
    const whale = await outsider();
    await whale.buy(bundle.token, "2");
    // The first wave (one wallet of two: its approval and sale) is sent in the pass that decides
    // the firing.
    const first = await vi.waitFor(
      async () => {
        await tick();
        const found = (await ruleOf(bundle.token, rule.id)).firings[0];
        if (!found?.transactions.length) throw new Error(`firing: ${JSON.stringify(found)}`);
        return found;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(first.state).toBe("selling");
    const cancelled = await call("POST", `/api/bundle/rules/${rule.id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    await blocksOf(first.transactions);
    const before = await holdings(bundle);
    const head = await client().getBlockNumber();
    await vi.waitFor(
      async () => {
        await tick();
        expect(await client().getBlockNumber()).toBeGreaterThan(head + 3n);
      },
      { timeout: 20_000, interval: 200 },
    );
    const after = await ruleOf(bundle.token, rule.id);
    expect(after.state).toBe("cancelled");
    expect(after.firings).toMatchObject([{ state: "stopped", transactions: first.transactions }]);
    // The first wallet sold; the second keeps its tokens.
    expect(before[0]).toBe(0n);
    expect(before[1]).toBeGreaterThan(0n);
    expect(await holdings(bundle)).toEqual(before);
  });
});

describe("a rule edited between the pass's reading and its decision", () => {
  it("is not decided on the conditions the pass read, and is read again next block", async () => {
    const bundle = await launchBundle(app, testChain, key, { wallets: 1 });
    const rule = await arm(bundle.token, {
      trigger: { any: [{ type: "curveProgress", atLeastPercent: 0.01 }] },
      action: { percent: 100 },
    });
    const pass = new AutosellPassRepository(app.database.db);
    // What a pass read: the rule met (the curve is past 0.01%), about to be decided.
    const seen = (await pass.armed()).find((r) => r.id === rule.id) as ArmedRule;
    const block = await client().getBlockNumber();
    const edit = await call("PUT", `/api/bundle/rules/${rule.id}`, {
      trigger: { any: [{ type: "curveProgress", atLeastPercent: 99 }] },
      action: { percent: 40 },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const decided = await pass.decide({
      ruleId: seen.id,
      version: seen.version,
      tier: 0,
      block,
      reading: { block: block.toString(), conditions: [] },
      percent: "100",
      wallets: bundle.wallets.map((w) => w.address.toLowerCase()),
      last: true,
    });
    expect(decided).toBe(false);
    const read = await readAt(bundle.token, rule.id, block);
    expect(read.state).toBe("armed");
    expect(read.firings).toEqual([]);
    expect(read.reading?.conditions[0]?.text).toMatch(/^curve \d+\.\d{2}% filled, of 99%$/);
  });
});
