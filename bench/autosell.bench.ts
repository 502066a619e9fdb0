// Auto-sell (issue 29) on the local chain (anvil behind the dev builder, a block a second), in
// process, with the server's own per-block driving: a block watcher announces every block to the
// job engine, whose `autosell-pass` job runs the engine's pass (and the transaction and ledger
// passes beside it), as the server does.
// (a) Trigger to inclusion: FIRINGS rules armed one at a time through POST /api/bundle/rules
//     over 4 bundles of 3 wallets, by turns a market cap 5% over today's and a sniper guard
//     (0.5 BNB of outside buying within 2 blocks); an outside buy makes each true in block N. The
//     figure is the block holding the sales − N (goal: p95 at most 1, the next block), and the
//     ms from block N's appearance to the sales' block's (a 50 ms poll of the chain).
// (b) Scale: 100 tokens launched with one wallet each over 10 users, 1,000 armed rules written
//     straight into autosell_rules (10 a token: market caps in BNB and USD, curve progress,
//     sniper guards with and without windows, both time kinds, price multiples, an all-of pair,
//     and on every tenth token a take profit, whose exit simulation is the costly input); none
//     can fire. The block watcher is stopped and `pass()` is timed on each of PASSES new blocks:
//     p50/p95 ms of server time (goal: under 100 ms), the pass's RPC requests (the server's chain
//     client counts them) and each step's time.
// Exits non-zero when a goal is missed, after printing.

import { buyToken, rpcFetch, rpcTransport } from "@bundler/chain";
import {
  autosellActionSchema,
  autosellExecutionSchema,
  autosellTriggerSchema,
} from "@bundler/shared";
import { sql } from "drizzle-orm";
import {
  type Address,
  createPublicClient,
  formatEther,
  type Hex,
  http,
  type PublicClient,
  parseEther,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { autosellRules } from "../apps/server/src/db/schema-autosell.ts";
import { blockCacheFor } from "../apps/server/src/lib/block-cache.ts";
import { watchBlocks } from "../apps/server/src/lib/block-watcher.ts";
import type { ChainContext } from "../apps/server/src/lib/chain-context.ts";
import { AutosellPassRepository } from "../apps/server/src/modules/autosell/autosell-pass.repository.ts";
import { createTestApp, type TestApp } from "../apps/server/src/test/app.ts";
import { type LaunchedBundle, launchBundle, setBalances } from "../apps/server/src/test/bundles.ts";
import { startTestChain, type TestChain } from "../apps/server/src/test/chain.ts";
import { freshPostgres, READ, rulesFor, timeSteps } from "./lib/autosell.ts";
import { percentile } from "./lib/localChain.ts";
import { onInterrupt, runBench } from "./lib/on-interrupt.ts";

const FIRINGS = Number(process.env.AUTOSELL_FIRINGS ?? 20);
const FIRING_BUNDLES = 4;
const TOKENS = 100;
const USERS = 10;
const PASSES = Number(process.env.AUTOSELL_PASSES ?? 20);
const GOAL_BLOCKS = 1;
const GOAL_MS = 100;

const say = (line = "") => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

let testChain: TestChain | undefined;
let app: TestApp | undefined;
let stopWatching: (() => void) | undefined;
let stopPolling = false;
let dropPostgres: (() => Promise<void>) | undefined;
const cleanup = async () => {
  stopPolling = true;
  stopWatching?.();
  await app?.close();
  await dropPostgres?.();
  await testChain?.stop();
};
const interrupted = onInterrupt(cleanup);

const main = async () => {
  const startedAt = performance.now();
  const masterKey = Buffer.alloc(32, 29);
  testChain = await startTestChain(masterKey, { blockTime: 1 });
  const chainRun = testChain;
  // The server's chain client counts its HTTP requests and JSON-RPC calls (in process, no hop).
  const counted = { requests: 0, calls: 0 };
  const countingFetch = (input: string, init?: { body?: unknown }) => {
    counted.requests += 1;
    const body = typeof init?.body === "string" ? init.body : "";
    counted.calls += body.startsWith("[") ? (JSON.parse(body) as unknown[]).length : 1;
    return rpcFetch(input, init as Parameters<typeof rpcFetch>[1]);
  };
  const client = createPublicClient({
    transport: http(testChain.local.builderUrl, {
      fetchFn: countingFetch as unknown as typeof fetch,
    }),
    cacheTime: 0,
  }) as PublicClient;
  const chain: ChainContext = { ...testChain.chain, client, reads: blockCacheFor(client) };
  // PGlite in process by default; DATABASE_URL: a fresh database on that Postgres.
  const postgres = process.env.DATABASE_URL
    ? await freshPostgres(process.env.DATABASE_URL)
    : undefined;
  dropPostgres = postgres?.drop;
  app = await createTestApp({
    chain,
    masterKey,
    ...(postgres ? { database: postgres.database } : {}),
  });
  say(`database: ${postgres ? "Postgres (DATABASE_URL)" : "PGlite, in process"}`);
  const running = app;
  const engine = running.autosellEngine;
  if (!engine) throw new Error("the app has no auto-sell engine");
  const watcher = watchBlocks(testChain.local.builderUrl, (block) => {
    void running.jobs.announceBlock(block).catch(() => {});
  });
  stopWatching = () => watcher.stop();
  // When each block first appeared (a 50 ms poll of anvil, beside the server's own watcher).
  const seen = new Map<bigint, number>();
  const direct = createPublicClient({ transport: rpcTransport(testChain.local.rpcUrl) });
  void (async () => {
    while (!stopPolling) {
      const head = await direct.getBlockNumber({ cacheTime: 0 }).catch(() => null);
      if (head !== null && !seen.has(head)) seen.set(head, performance.now());
      await sleep(50);
    }
  })();

  // (a) Trigger to inclusion.
  const key = await running.auth.mintKey("user");
  const bundles: LaunchedBundle[] = [];
  for (let b = 0; b < FIRING_BUNDLES; b++)
    bundles.push(await launchBundle(running, chainRun, key, { wallets: 3 }));
  const outsider = privateKeyToAccount(generatePrivateKey());
  await setBalances(chainRun, [[outsider.address, parseEther("100")]]);
  const { launchpad, trade } = chainRun.chain;
  if (!launchpad || !trade) throw new Error("the local chain trades nowhere");
  const buy = async (token: Address, bnb: string) => {
    const { hash } = await buyToken(direct as PublicClient, {
      launchpad,
      ...trade,
      account: outsider,
      token,
      funds: parseEther(bnb),
    });
    return (await direct.waitForTransactionReceipt({ hash, pollingInterval: 50 })).blockNumber;
  };
  const arm = async (token: Address, trigger: unknown) => {
    const response = await running.server.inject({
      method: "POST",
      url: "/api/bundle/rules",
      headers: { "x-auth-key": key },
      payload: { address: token, trigger, action: { percent: 10 } },
    });
    if (response.statusCode !== 200) throw new Error(`create rule: ${response.body}`);
    return (response.json() as { rule: { id: string } }).rule.id;
  };
  const firingOf = async (ruleId: string) => {
    const { rows } = await running.database.db.execute(sql`
      select block_number::text as block, state, transactions from autosell_firings
        where rule_id = ${ruleId}`);
    return rows[0] as { block: string; state: string; transactions: string[] } | undefined;
  };
  say(
    `(a) ${FIRINGS} firings over ${FIRING_BUNDLES} bundles of 3 wallets, each selling 10%; blocks every second`,
  );
  const late: number[] = [];
  const lateMs: number[] = [];
  const decidedLate: number[] = [];
  let lastBuy = 0n;
  for (let i = 0; i < FIRINGS && !interrupted(); i++) {
    const bundle = bundles[i % FIRING_BUNDLES] as LaunchedBundle;
    const guard = Math.floor(i / FIRING_BUNDLES) % 2 === 1;
    // A sniper guard's window must not hold the previous buy when it is armed.
    while ((await direct.getBlockNumber({ cacheTime: 0 })) < lastBuy + 3n) await sleep(100);
    let trigger: unknown;
    if (guard) trigger = { any: [{ type: "outsideBuys", atLeastBnb: "0.5", withinBlocks: 2 }] };
    else {
      const cap = await engine.marketCapNow(bundle.token);
      const atLeast = formatEther((cap.wei * 105n) / 100n);
      trigger = { any: [{ type: "marketCap", atLeast, unit: "BNB" }] };
    }
    const ruleId = await arm(bundle.token, trigger);
    const block = await buy(bundle.token, guard ? "0.6" : "1");
    lastBuy = block;
    let firing = await firingOf(ruleId);
    const waitStarted = performance.now();
    while (firing?.state !== "sent") {
      if (performance.now() - waitStarted > 30_000)
        throw new Error(`rule ${ruleId} did not fire: ${JSON.stringify(firing)}`);
      await sleep(50);
      firing = await firingOf(ruleId);
    }
    const receipts = await Promise.all(
      firing.transactions.map((hash) =>
        direct.waitForTransactionReceipt({ hash: hash as Hex, pollingInterval: 50 }),
      ),
    );
    if (receipts.some((r) => r.status !== "success")) throw new Error("a sale reverted");
    const included = BigInt(Math.max(...receipts.map((r) => Number(r.blockNumber))));
    late.push(Number(included - block));
    decidedLate.push(Number(BigInt(firing.block) - block));
    const from = seen.get(block);
    const to = seen.get(included);
    if (from !== undefined && to !== undefined) lateMs.push(to - from);
  }
  const p95 = percentile(late, 95);
  const metA = p95 <= GOAL_BLOCKS;
  say(
    `  sales' block − trigger's block: p50 ${percentile(late, 50)}, p95 ${p95}, max ${Math.max(...late)} ` +
      `(goal: p95 at most ${GOAL_BLOCKS}: ${metA ? "met" : "NOT met"}); ` +
      `the firing's recorded block − the trigger's: ${[...new Set(decidedLate)]
        .sort((x, y) => x - y)
        .map((d) => `${d} in ${decidedLate.filter((x) => x === d).length}`)
        .join(", ")}`,
  );
  say(
    `  ms from the trigger's block to the sales' block: p50 ${fixed(percentile(lateMs, 50), 0)}, ` +
      `p95 ${fixed(percentile(lateMs, 95), 0)}, max ${fixed(Math.max(...lateMs), 0)}`,
  );
  say(`  (a) took ${fixed((performance.now() - startedAt) / 1000, 0)} s`);
  if (interrupted()) return;

  // (b) 1,000 armed rules over 100 tokens.
  const setupStarted = performance.now();
  const keys = await Promise.all(Array.from({ length: USERS }, () => running.auth.mintKey("user")));
  const launched: Array<{ token: string; ownerKey: string }> = [];
  for (let t = 0; t < TOKENS && !interrupted(); t += 4)
    launched.push(
      ...(await Promise.all(
        [0, 1, 2, 3].map(async (j) => {
          const ownerKey = keys[(t + j) % USERS] as string;
          const launchedBundle = await launchBundle(running, chainRun, ownerKey, {
            wallets: 1,
            buy: "0.02",
          });
          return { token: launchedBundle.token.toLowerCase(), ownerKey };
        }),
      )),
    );
  if (interrupted()) return;
  const owners = new Map(
    await Promise.all(
      keys.map(async (k) => [k, (await running.auth.authenticate(k))?.id as string] as const),
    ),
  );
  const rows = launched.flatMap(({ token, ownerKey }, t) =>
    rulesFor(t).map((trigger) => ({
      ownerId: owners.get(ownerKey) as string,
      token,
      state: "armed" as const,
      trigger: autosellTriggerSchema.parse(trigger),
      action: autosellActionSchema.parse({ percent: 100 }),
      execution: autosellExecutionSchema.parse({}),
    })),
  );
  await running.database.db.insert(autosellRules).values(rows);
  // The server's watcher is stopped: from here on the only pass is the one timed here.
  watcher.stop();
  await sleep(1500);
  // The launches' ledger lines (price multiples and take profits read the average cost).
  await running.pnlLedger?.pass();
  const armed = await new AutosellPassRepository(running.database.db).armed();
  say();
  say(
    `(b) ${armed.length} armed rules over ${new Set(armed.map((r) => r.token)).size} tokens of ${USERS} users ` +
      `(${rows.filter((r) => JSON.stringify(r.trigger).includes("takeProfit")).length} take profits: an exit simulation each); ` +
      `set up in ${fixed((performance.now() - setupStarted) / 1000, 0)} s`,
  );
  const nextBlock = async (after: bigint) => {
    for (;;) {
      const head = await direct.getBlockNumber({ cacheTime: 0 });
      if (head > after) return head;
      await sleep(20);
    }
  };
  const steps = new Map<string, { from: number; to: number }>();
  timeSteps(chain, steps);
  const stepWords = () =>
    [...steps]
      .map(([label, { from, to }]) => `${label.trim().replace(/:$/, "")} ${fixed(to - from, 0)}`)
      .join(", ");
  // The first pass reads every token's launchpad events since its launch and arms every rule.
  let head = await nextBlock(0n);
  let started = performance.now();
  await engine.pass();
  say(`  first pass: ${fixed(performance.now() - started, 0)} ms (${stepWords()})`);
  const perStep = new Map<string, number[]>();
  const passMs: number[] = [];
  const requests: number[] = [];
  const calls: number[] = [];
  for (let p = 0; p < PASSES && !interrupted(); p++) {
    head = await nextBlock(head);
    steps.clear();
    counted.requests = 0;
    counted.calls = 0;
    started = performance.now();
    await engine.pass();
    passMs.push(performance.now() - started);
    requests.push(counted.requests);
    calls.push(counted.calls);
    for (const [label, { from, to }] of steps)
      perStep.set(label, [...(perStep.get(label) ?? []), to - from]);
  }
  const { rows: fired } = await running.database.db.execute(
    sql`select r.trigger, f.reading from autosell_firings f join autosell_rules r on r.id = f.rule_id
      where r.token = any(${`{${launched.map((l) => l.token).join(",")}}`}::text[])`,
  );
  if (fired.length > 0)
    throw new Error(`${fired.length} rules of (b) fired, e.g. ${JSON.stringify(fired[0])}`);
  const p95Ms = percentile(passMs, 95);
  const metB = p95Ms < GOAL_MS;
  say(
    `  pass over ${passMs.length} blocks: p50 ${fixed(percentile(passMs, 50))} ms, p95 ${fixed(p95Ms)} ms, ` +
      `max ${fixed(Math.max(...passMs))} ms (goal: under ${GOAL_MS} ms: ${metB ? "met" : "NOT met"})`,
  );
  say(
    `  RPC per pass: ${percentile(requests, 50)} HTTP requests (p50; max ${Math.max(...requests)}), ` +
      `${percentile(calls, 50)} JSON-RPC calls (max ${Math.max(...calls)})`,
  );
  say("  steps, p50 ms a pass:");
  for (const [label, values] of perStep)
    say(`    ${label.padEnd(36)} ${fixed(percentile(values, 50))}`);
  const awaited = [
    "armed rules (SQL)",
    "bundles (SQL)",
    READ,
    "save readings (SQL)",
    "firings selling (SQL)",
  ];
  const rest = passMs.map(
    (ms, i) => ms - awaited.reduce((s, l) => s + (perStep.get(l)?.[i] ?? 0), 0),
  );
  say(`    ${"the rest (judging 1,000 rules in JS)".padEnd(36)} ${fixed(percentile(rest, 50))}`);
  // The same passes with the take profits paused: what the exit simulations cost.
  await running.database.db.execute(
    sql`update autosell_rules set state = 'paused' where trigger::text like '%takeProfit%'`,
  );
  const without: number[] = [];
  const withoutRequests: number[] = [];
  for (let p = 0; p < Math.ceil(PASSES / 2) && !interrupted(); p++) {
    head = await nextBlock(head);
    counted.requests = 0;
    started = performance.now();
    await engine.pass();
    without.push(performance.now() - started);
    withoutRequests.push(counted.requests);
  }
  say(
    `  the take profits paused (no exit simulation), ${without.length} passes: p50 ${fixed(percentile(without, 50))} ms, ` +
      `p95 ${fixed(percentile(without, 95))} ms, ${percentile(withoutRequests, 50)} HTTP requests a pass`,
  );
  say(`bench took ${fixed((performance.now() - startedAt) / 1000, 0)} s`);
  if (!metA || !metB) process.exitCode = 1;
};

runBench(main, cleanup);
