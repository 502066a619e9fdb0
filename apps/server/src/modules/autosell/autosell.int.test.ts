import {
  AUTOSELL_LIMITS,
  type AutosellRule,
  createRuleRoute,
  SELL_SLIPPAGE_BPS,
} from "@bundler/shared";
import { sql } from "drizzle-orm";
import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceUnavailableError } from "../../lib/errors.ts";
import type { TestApp } from "../../test/app.ts";
import { type LaunchedBundle, launchBundle } from "../../test/bundles.ts";
import type { TestChain } from "../../test/chain.ts";
import { apiCaller, newWallet } from "../../test/drafts-api.ts";
import { rowCounts } from "../../test/row-counts.ts";
import { startTestbed, stopTestbed } from "../../test/testbed.ts";
import { BundlesRepository } from "../bundles/bundles.repository.ts";
import { AutosellRepository } from "./autosell.repository.ts";
import { AutosellService } from "./autosell.service.ts";

const masterKey = Buffer.alloc(32, 29);
let testChain: TestChain;
let app: TestApp;
let key: string;
/** A second user, who owns nothing here. */
let otherKey: string;
let ownerId: string;
/** The one bundle every test of the file puts its rules on. */
let bundle: LaunchedBundle;

beforeAll(async () => {
  ({ testChain, app, key } = await startTestbed(masterKey));
  otherKey = await app.auth.mintKey("user");
  ownerId = (await app.auth.authenticate(key))?.id as string;
  bundle = await launchBundle(app, testChain, key, { wallets: 2 });
});
afterAll(() => stopTestbed({ app, testChain }));

const call = apiCaller(
  () => app,
  () => key,
);

const STOP_LOSS = { any: [{ type: "stopLoss", pnlPercent: -50 }] };

/** A rule body on the file's bundle: a stop loss selling everything unless told otherwise. */
const body = (fields: Record<string, unknown> = {}) => ({
  address: bundle.token,
  trigger: STOP_LOSS,
  action: { percent: 100 },
  ...fields,
});

const created = async (fields: Record<string, unknown> = {}): Promise<AutosellRule> => {
  const { status, body: answer } = await call("POST", "/api/bundle/rules", body(fields));
  expect(status, JSON.stringify(answer)).toBe(200);
  return answer.rule as AutosellRule;
};

const ruleRow = async (id: string) =>
  (
    await app.database.db.execute(
      sql`select state, reading, peak_wei::text as peak, armed_block::text as armed from autosell_rules where id = ${id}`,
    )
  ).rows[0] as { state: string; reading: unknown; peak: string | null; armed: string | null };

/** What the engine's passes would have set on an armed rule: a reading, a peak, the armed block. */
const tracked = (id: string) =>
  app.database.db.execute(sql`
    update autosell_rules set peak_wei = 5, armed_block = 7,
      reading = ${JSON.stringify({ block: "7", conditions: [] })}::jsonb
    where id = ${id}`);

/**
 * Every live rule of the file's bundle cancelled and every open firing ended, so each test
 * starts within the limits.
 */
const cancelAll = async () => {
  await app.database.db.execute(
    sql`update autosell_firings set state = 'sent' where state = 'selling'`,
  );
  await app.database.db.execute(
    sql`update autosell_rules set state = 'cancelled' where state in ('armed', 'paused')`,
  );
};

/** A firing as the engine records it (tier 0 unless told), in `state`. */
const firingOf = (ruleId: string, state: string, tier = 0, transactions: string[] = []) =>
  app.database.db.execute(sql`
    insert into autosell_firings (rule_id, tier, block_number, reading, percent, wallets, state, next_block, transactions)
    values (${ruleId}, ${tier}, 10, ${JSON.stringify({ block: "10", conditions: [] })}::jsonb, '100',
      ${JSON.stringify(bundle.wallets.map((w) => w.address.toLowerCase()))}::jsonb, ${state}, 11,
      ${JSON.stringify(transactions)}::jsonb)`);

/** A request the server refuses with this status and words, having stored nothing. */
const refused = async (
  method: "POST" | "PUT",
  url: string,
  payload: unknown,
  status: number,
  words: RegExp,
) => {
  const before = await rowCounts(app.database.db);
  const answer = await call(method, url, payload);
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body.success).toBe(false);
  expect(answer.body.error).toMatch(words);
  expect(await rowCounts(app.database.db)).toEqual(before);
  return answer.body;
};

/** A rule whose action is a ladder of these tiers (trigger, percent), with no trigger of its own. */
const ladderOf = (...tiers: Array<[unknown, number]>) => ({
  trigger: undefined,
  action: { tiers: tiers.map(([trigger, percent]) => ({ trigger, percent })) },
});

/** A create the server refuses, having stored nothing. */
const createRefused = (fields: Record<string, unknown>, status: number, words: RegExp) =>
  refused("POST", "/api/bundle/rules", body(fields), status, words);

describe("creating and listing rules", () => {
  it("stores the rule armed, as parsed with its defaults, and lists the bundle's rules newest first", async () => {
    const [first, second] = bundle.wallets.map((w) => w.address) as [string, string];
    const rule = await created({ action: { percent: 50, wallets: [second.toLowerCase()] } });
    expect(rule).toMatchObject({
      address: getAddress(bundle.token),
      state: "armed",
      trigger: STOP_LOSS,
      action: { percent: 50, wallets: [getAddress(second)], includeDeveloper: false },
      execution: {
        spreadBlocks: 1,
        maxWalletsPerBlock: 50,
        jitter: false,
        slippageBps: SELL_SLIPPAGE_BPS.default,
      },
      reading: null,
      firings: [],
    });
    expect(new Date(rule.createdAt).toISOString()).toBe(rule.createdAt);
    // The engine arms it at its first pass.
    expect((await ruleRow(rule.id)).armed).toBeNull();

    const ladder = await created({
      trigger: undefined,
      action: {
        tiers: [
          { trigger: { any: [{ type: "priceMultiple", atLeast: "2" }] }, percent: 25 },
          { trigger: { all: [{ type: "trailing", dropPercent: 30 }] }, percent: 75 },
        ],
        wallets: [first],
      },
      execution: { spreadBlocks: 3, jitter: true },
    });
    expect(ladder.trigger).toBeNull();
    expect(ladder.execution).toMatchObject({ spreadBlocks: 3, jitter: true });

    const listed = await call("GET", `/api/bundle/rules?address=${bundle.token.toLowerCase()}`);
    expect(listed.status).toBe(200);
    const ids = (listed.body.rules as AutosellRule[]).map((r) => r.id);
    expect(ids.slice(0, 2)).toEqual([ladder.id, rule.id]);
    await cancelAll();
  });

  it("lists the firings the engine recorded, by tier, with their transactions", async () => {
    const rule = await created();
    await app.database.db.execute(sql`
      insert into autosell_firings (rule_id, tier, block_number, reading, percent, wallets, state, next_block, transactions)
      values
        (${rule.id}, 1, 12, ${JSON.stringify({ block: "12", conditions: [] })}::jsonb, '100', '[]'::jsonb, 'selling', 13, '[]'::jsonb),
        (${rule.id}, 0, 10, ${JSON.stringify({ block: "10", conditions: [] })}::jsonb, '25', '[]'::jsonb, 'sent', 11, '["0xabc"]'::jsonb)`);
    const listed = await call("GET", `/api/bundle/rules?address=${bundle.token}`);
    const ours = (listed.body.rules as AutosellRule[]).find((r) => r.id === rule.id);
    expect(ours?.firings.map((f) => [f.tier, f.block, f.state, f.transactions])).toEqual([
      [0, "10", "sent", ["0xabc"]],
      [1, "12", "selling", []],
    ]);
    await cancelAll();
  });
});

describe("bad input: a 400 that says why and stores nothing", () => {
  const create = (fields: Record<string, unknown>, words: RegExp) =>
    createRefused(fields, 400, words);
  const soon = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

  it("refuses a rule on an X Mode token, saying why, and stores nothing (four-meme-ai errors.md)", async () => {
    const xMode = await launchBundle(app, testChain, key, { wallets: 1 });
    await testChain.setTokenKind(xMode.token, { template: 0x10000n });
    await refused(
      "POST",
      "/api/bundle/rules",
      body({ address: xMode.token }),
      400,
      new RegExp(
        `^Token ${xMode.token} cannot be sold by an auto-sell rule: it is an X Mode token: four\\.meme sells it only through buys its own API signs, which this app does not make$`,
      ),
    );
  });

  it("wants a trigger unless the action is a ladder, and none with a ladder", async () => {
    await create({ trigger: undefined }, /^Trigger is required unless the action is a ladder/);
    await create(
      { action: { tiers: [{ trigger: STOP_LOSS, percent: 50 }] } },
      /^A ladder's tiers have their own triggers/,
    );
  });

  it("sells only this bundle's wallets, naming the first that is not", async () => {
    const stranger = newWallet().address;
    const answer = await create(
      { action: { percent: 100, wallets: [bundle.wallets[0]?.address, stranger] } },
      new RegExp(`^Wallet 2 \\(${stranger}\\) is not one of this bundle's wallets`),
    );
    expect(answer).toMatchObject({ field: "action.wallets.1", row: 2 });
    // The developer sells through its own tick, not in the list.
    await create(
      { action: { percent: 100, wallets: [bundle.deployer.address] } },
      /^Wallet 1 .* is not one of this bundle's wallets/,
    );
  });

  it("refuses a time already past, and a time with both or neither of its moments", async () => {
    await create(
      { trigger: { any: [{ type: "time", at: "2020-01-01T00:00:00Z" }] } },
      /^Condition 1: 2020-01-01T00:00:00Z has already passed/,
    );
    await create(
      {
        trigger: {
          any: [STOP_LOSS.any[0], { type: "time", at: soon(10), afterMinutes: 5 }],
        },
      },
      /^Condition 2: a time needs either a moment or minutes after the launch/,
    );
    await create(ladderOf([{ all: [{ type: "time" }] }, 100]), /^Tier 1, condition 1: a time/);
  });

  it("refuses a percent to sell with more than 2 decimals or in exponent form, naming the field", async () => {
    await create(
      { action: { percent: 1e-7 } },
      /^Percent to sell must have at most 2 decimals, like 12\.5$/,
    );
    await create(
      { action: { percent: 33.333 } },
      /^Percent to sell must have at most 2 decimals, like 12\.5$/,
    );
    await create(
      ladderOf([STOP_LOSS, 0.005], [STOP_LOSS, 50]),
      /^Tier 1's percent must have at most 2 decimals, like 12\.5$/,
    );
    expect((await created({ action: { percent: 12.25 } })).action).toMatchObject({
      percent: 12.25,
    });
    await cancelAll();
  });

  it("refuses what the schemas refuse: a percent over 100, a ladder over 100%, a condition with no value", async () => {
    await create({ action: { percent: 120 } }, /^Percent to sell must be at most 100/);
    await create(ladderOf([STOP_LOSS, 60], [STOP_LOSS, 50]), /tiers add up to more than 100%/);
    await create(
      { trigger: { any: [{ type: "marketCap" }] } },
      /^Condition 1's value is required$/,
    );
    const noDrop = ladderOf([{ any: [{ type: "trailing" }] }, 50]);
    await create(noDrop, /^Tier 1's trigger: Condition 1's drop is required$/);
    await create({ trigger: { some: [] } }, /^Trigger needs its conditions under "any"/);
  });
});

describe("another user's bundle or rule: 404", () => {
  it("answers 404 to another user and for unknown tokens and ids, and moves nothing", async () => {
    const rule = await created();
    const as = async (method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
      call(method, url, payload, otherKey);
    expect(await as("POST", "/api/bundle/rules", body())).toMatchObject({
      status: 404,
      body: { error: "Bundle not found" },
    });
    expect((await as("GET", `/api/bundle/rules?address=${bundle.token}`)).status).toBe(404);
    expect((await as("POST", "/api/bundle/rules/dry-run", body())).status).toBe(404);
    for (const verb of ["pause", "resume", "cancel"])
      expect(await as("POST", `/api/bundle/rules/${rule.id}/${verb}`)).toMatchObject({
        status: 404,
        body: { error: "Rule not found" },
      });
    const edit = {
      trigger: { any: [{ type: "stopLoss", pnlPercent: -20 }] },
      action: { percent: 10 },
    };
    expect((await as("PUT", `/api/bundle/rules/${rule.id}`, edit)).status).toBe(404);
    expect(await ruleRow(rule.id)).toMatchObject({ state: "armed" });
    const listed = await call("GET", `/api/bundle/rules?address=${bundle.token}`);
    expect((listed.body.rules as AutosellRule[]).find((r) => r.id === rule.id)?.trigger).toEqual(
      STOP_LOSS,
    );

    await createRefused({ address: newWallet().address }, 404, /^Bundle not found$/);
    expect((await call("POST", "/api/bundle/rules/not-a-rule/pause")).status).toBe(404);
    expect(
      (await call("POST", "/api/bundle/rules/00000000-0000-4000-8000-000000000000/cancel")).status,
    ).toBe(404);
    await cancelAll();
  });
});

describe("pause, resume, cancel and edit", () => {
  it("moves between the states it may, and answers 409 with a sentence otherwise", async () => {
    const rule = await created();
    const move = (verb: string) => call("POST", `/api/bundle/rules/${rule.id}/${verb}`);

    expect(await move("pause")).toMatchObject({ status: 200, body: { rule: { state: "paused" } } });
    expect(await move("pause")).toMatchObject({
      status: 409,
      body: { error: "Rule is paused: only an armed rule can be paused" },
    });
    // What the engine tracked while armed; a resume arms the rule afresh.
    await tracked(rule.id);
    expect(await move("resume")).toMatchObject({ status: 200, body: { rule: { state: "armed" } } });
    expect(await ruleRow(rule.id)).toMatchObject({ state: "armed", peak: null, armed: null });
    expect((await move("resume")).status).toBe(409);

    await tracked(rule.id);
    const edit = {
      trigger: { any: [{ type: "curveProgress", atLeastPercent: 90 }] },
      action: { percent: 40 },
    };
    const edited = await call("PUT", `/api/bundle/rules/${rule.id}`, edit);
    expect(edited).toMatchObject({ status: 200, body: { rule: { ...edit, reading: null } } });
    expect(await ruleRow(rule.id)).toMatchObject({ reading: null, peak: null, armed: null });
    await refused(
      "PUT",
      `/api/bundle/rules/${rule.id}`,
      { ...edit, action: { percent: 40, wallets: [newWallet().address] } },
      400,
      /^Wallet 1 .* is not one of this bundle's wallets/,
    );

    expect((await move("cancel")).body.rule).toMatchObject({ state: "cancelled" });
    expect(await move("cancel")).toMatchObject({
      status: 409,
      body: {
        error:
          "Rule is cancelled: only an armed or paused rule, or one still selling, can be cancelled",
      },
    });
    expect((await move("resume")).status).toBe(409);
    await refused(
      "PUT",
      `/api/bundle/rules/${rule.id}`,
      edit,
      409,
      /^Rule is cancelled: only an armed or paused rule can be edited$/,
    );

    // Fired by the engine: nothing more to pause or edit.
    const fired = await created();
    await app.database.db.execute(
      sql`update autosell_rules set state = 'fired' where id = ${fired.id}`,
    );
    expect(await call("POST", `/api/bundle/rules/${fired.id}/pause`)).toMatchObject({
      status: 409,
      body: { error: "Rule is fired: only an armed rule can be paused" },
    });
    await refused("PUT", `/api/bundle/rules/${fired.id}`, edit, 409, /^Rule is fired/);
  });
});

describe("a rule whose firing is still selling", () => {
  it("is cancelled with its firing: no further waves, and the firing says the sales sent stand", async () => {
    const rule = await created();
    await app.database.db.execute(
      sql`update autosell_rules set state = 'fired' where id = ${rule.id}`,
    );
    await firingOf(rule.id, "selling", 0, ["0xabc"]);
    const cancelled = await call("POST", `/api/bundle/rules/${rule.id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const answered = cancelled.body.rule as AutosellRule;
    expect(answered.state).toBe("cancelled");
    expect(answered.firings).toMatchObject([
      {
        state: "stopped",
        transactions: ["0xabc"],
        error:
          "Stopped by a cancel: no further waves; the 1 transaction already sent stands (what it sold stays sold)",
      },
    ]);
  });

  it("stops a ladder's selling tier when the armed ladder is cancelled", async () => {
    const ladder = await created(ladderOf([STOP_LOSS, 25], [STOP_LOSS, 75]));
    await firingOf(ladder.id, "selling");
    const cancelled = await call("POST", `/api/bundle/rules/${ladder.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect((cancelled.body.rule as AutosellRule).firings.map((f) => f.state)).toEqual(["stopped"]);
  });

  it("answers 409 to a cancel once every firing of a fired rule has ended", async () => {
    const rule = await created();
    await app.database.db.execute(
      sql`update autosell_rules set state = 'fired' where id = ${rule.id}`,
    );
    await firingOf(rule.id, "sent", 0, ["0xabc"]);
    expect(await call("POST", `/api/bundle/rules/${rule.id}/cancel`)).toMatchObject({
      status: 409,
      body: {
        error:
          "Rule is fired: only an armed or paused rule, or one still selling, can be cancelled",
      },
    });
  });
});

describe("editing a ladder that has fired tiers", () => {
  const TIER_1 = { any: [{ type: "curveProgress", atLeastPercent: 90 }] };
  const TIER_2 = { any: [{ type: "curveProgress", atLeastPercent: 99 }] };

  it("refuses to turn it into a single percent, to change a fired tier, or to leave no tier to fire", async () => {
    const ladder = await created(ladderOf([TIER_1, 25], [TIER_2, 75]));
    await firingOf(ladder.id, "sent", 0, ["0xabc"]);
    const url = `/api/bundle/rules/${ladder.id}`;
    await refused(
      "PUT",
      url,
      { trigger: STOP_LOSS, action: { percent: 50 } },
      409,
      /^Tier 1 of this ladder has already fired: it stays a ladder whose fired tiers are kept as they are/,
    );
    await refused(
      "PUT",
      url,
      ladderOf([TIER_1, 30], [TIER_2, 70]),
      409,
      /^Tier 1 has already fired: it cannot be changed/,
    );
    await refused(
      "PUT",
      url,
      ladderOf([TIER_1, 25]),
      409,
      /^Every tier of this ladder would have fired: add a tier after tier 1, or cancel the rule/,
    );
    await cancelAll();
  });

  it("accepts new tiers after the fired ones, and the rule stays armed", async () => {
    const ladder = await created(ladderOf([TIER_1, 25], [TIER_2, 75]));
    await firingOf(ladder.id, "sent", 0, ["0xabc"]);
    const edited = await call(
      "PUT",
      `/api/bundle/rules/${ladder.id}`,
      ladderOf([TIER_1, 25], [TIER_2, 25], [STOP_LOSS, 50]),
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.rule).toMatchObject({ state: "armed" });
    await cancelAll();
  });
});

describe("limits", () => {
  it(`keeps at most ${AUTOSELL_LIMITS.perBundle} armed or paused rules per bundle`, async () => {
    await cancelAll();
    const rules: AutosellRule[] = [];
    for (let i = 0; i < AUTOSELL_LIMITS.perBundle; i++) rules.push(await created());
    await call("POST", `/api/bundle/rules/${rules[0]?.id}/pause`);
    await createRefused(
      {},
      400,
      /^This bundle already has 20 rules armed, paused or still selling, the most/,
    );
    // A cancelled rule no longer counts.
    await call("POST", `/api/bundle/rules/${rules[1]?.id}/cancel`);
    await created();
    await cancelAll();
  });

  it("counts a fired rule whose firing is still selling against the bundle's limit", async () => {
    await cancelAll();
    const rules: AutosellRule[] = [];
    for (let i = 0; i < AUTOSELL_LIMITS.perBundle; i++) rules.push(await created());
    const fired = rules[0] as AutosellRule;
    await app.database.db.execute(
      sql`update autosell_rules set state = 'fired' where id = ${fired.id}`,
    );
    await firingOf(fired.id, "selling");
    await app.database.db.execute(
      sql`update autosell_rules set state = 'cancelled' where id = ${rules[1]?.id}`,
    );
    await created();
    await createRefused(
      {},
      400,
      /^This bundle already has 20 rules armed, paused or still selling, the most it may have/,
    );
    // Once its firing ends it no longer counts.
    await app.database.db.execute(
      sql`update autosell_firings set state = 'sent' where rule_id = ${fired.id}`,
    );
    await created();
    await cancelAll();
  });

  it(`keeps at most ${AUTOSELL_LIMITS.perUser} armed or paused rules per user, over all their bundles`, async () => {
    // The user's rules on other tokens, as earlier requests would have left them.
    await app.database.db.execute(sql`
      insert into autosell_rules (owner_id, token, trigger, action, execution)
      select ${ownerId}, '0x' || lpad(to_hex(n), 40, '0'), ${JSON.stringify(STOP_LOSS)}::jsonb,
        '{"percent":100,"includeDeveloper":false}'::jsonb, '{}'::jsonb
      from generate_series(1, ${AUTOSELL_LIMITS.perUser}) as n`);
    await createRefused(
      {},
      400,
      /^You already have 200 rules armed, paused or still selling, the most/,
    );
    await cancelAll();
  });
});

describe("with the engine: market caps and dry runs", () => {
  it("refuses a market cap to reach that the token is already at, naming today's", async () => {
    const cap = (atLeast: string) => ({ any: [{ type: "marketCap", atLeast, unit: "BNB" }] });
    await createRefused(
      { trigger: cap("0.000001") },
      400,
      /^Condition 1: the market cap is already \d[\d,]*\.\d{4} BNB, at or above 0\.000001 BNB$/,
    );
    await createRefused(ladderOf([cap("0.000001"), 50]), 400, /^Tier 1, condition 1: the/);
    expect((await created({ trigger: cap("1000000") })).state).toBe("armed");
    await cancelAll();
  });

  it("answers what the rule would do now and stores nothing", async () => {
    const before = await rowCounts(app.database.db);
    const { status, body: answer } = await call("POST", "/api/bundle/rules/dry-run", body());
    expect(status, JSON.stringify(answer)).toBe(200);
    expect(answer.fires).toBe(false);
    const reading = answer.reading as { conditions: Array<{ type: string; met: boolean }> };
    expect(reading.conditions).toMatchObject([{ type: "stopLoss", met: false }]);
    // Every bundle wallet holds the launch's tokens: each would sell them for some BNB.
    const sales = answer.sales as Array<{ address: string; expectedBnb: string }>;
    expect(sales.map((sale) => sale.address).sort()).toEqual(
      bundle.wallets.map((w) => getAddress(w.address)).sort(),
    );
    expect(Number(answer.expectedBnb)).toBeGreaterThan(0);
    expect(await rowCounts(app.database.db)).toEqual(before);
    await refused(
      "POST",
      "/api/bundle/rules/dry-run",
      body({ trigger: { any: [{ type: "time", at: "2020-01-01T00:00:00Z" }] } }),
      400,
      /has already passed/,
    );
  });

  it("answers 503 for a dry run without a chain, after the ownership check", async () => {
    const bare = new AutosellService(
      new AutosellRepository(app.database.db),
      new BundlesRepository(app.database.db),
      undefined,
      undefined,
    );
    const parsed = createRuleRoute.body.parse(body());
    await expect(bare.dryRun(ownerId, parsed)).rejects.toBeInstanceOf(ServiceUnavailableError);
    const stranger = "00000000-0000-4000-8000-000000000000";
    await expect(bare.dryRun(stranger, parsed)).rejects.toMatchObject({ statusCode: 404 });
  });
});
