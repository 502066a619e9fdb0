// Many users polling at once (issue "several server processes", "Serving many users at once"):
// one real server process (apps/server/src/main.ts with its local chain) on the embedded
// database, or on a fresh database of the Postgres at DATABASE_URL; LOAD_USERS users set up
// through the API (a key, a draft with its payment open, a dispersal waiting for funding, a
// mined transaction; the first LOAD_BUNDLES with a launched bundle), then every user polls at
// the web app's rates for LOAD_SECONDS after a warm-up:
//   payment status 5 s, balances 10 s (the bundle's page for users with a bundle, else the
//   create page's funding panel of 50 addresses), dispersal status 10 s, tx status 3 s,
//   bumper status 10 s, key validate 60 s and draft list 30 s (page loads).
// Then the heavy mix (issue 39): 200 clients (taking the users in turn) asking key validate,
// draft list, payment status, dispersal status, 50-address balances and tx status in equal
// shares, 150 req/s offered in all. LOAD_MIX=alone: payment status, then the draft list, each
// alone at the heavy mix's 200 clients and 150 req/s (goal p99 < 200 ms); LOAD_ALONE names
// other routes, comma-separated ("funding balances (50),tx status").
// LOAD_MIX=spec|heavy|both|alone (both). LOAD_FLAT_OUT=1 runs each mix flat out instead (every
// client asks again as soon as it is answered): throughput, to compare two commits in one run.
// Prints p50/p99/max latency, req/s and errors, overall and per route, with the server's own
// time per route and its event-loop delay over the same window, and the goal line.
// LOAD_PROCESSES=3 with DATABASE_URL spreads the users over three processes on one Postgres.
// LOAD_LAUNCHES=N then launches N bundles of 10 wallets, one after another, and prints the
// event-loop delay over them: its max bounds how long any pass (launch adoption, the payment
// watch, the P&L ledger) held the request loop (issue 39: at most 10 ms at a time).
// Asserts nothing. LOAD_USERS (500), LOAD_SECONDS (30), LOAD_WARMUP_SECONDS (10), LOAD_BUNDLES (5).

import {
  ALONE_ROUTES,
  HEAVY_MIX,
  heavyPollsOf,
  type LoadServers,
  measureMix,
  ms,
  POLL_NAMES,
  type PollName,
  pollsOf,
  reportLines,
  startLoadServers,
} from "./lib/load-mix.ts";
import { createLoadUsers, launchBundle } from "./lib/load-users.ts";
import { onInterrupt } from "./lib/on-interrupt.ts";
import { eventLoopLines, runtimeOf } from "./lib/server-runtime.ts";

const envInt = (name: string, fallback: number) => {
  const value = Number.parseInt(process.env[name] ?? "", 10);
  return Number.isInteger(value) && value >= 0 ? value : fallback;
};
const USERS = envInt("LOAD_USERS", 500);
const SECONDS = envInt("LOAD_SECONDS", 30);
const WARMUP_SECONDS = envInt("LOAD_WARMUP_SECONDS", 10);
const BUNDLES = envInt("LOAD_BUNDLES", 5);
const PROCESSES = envInt("LOAD_PROCESSES", 1);
const GOAL_P99_MS = 100;
/** A route alone at the heavy mix's rate (issue 39). */
const GOAL_ALONE_P99_MS = 200;
const MIX = process.env.LOAD_MIX || "both";
const FLAT_OUT = process.env.LOAD_FLAT_OUT === "1";
const LAUNCHES = envInt("LOAD_LAUNCHES", 0);
const ALONE = (process.env.LOAD_ALONE?.split(",") ?? ALONE_ROUTES).map((name) => {
  if (!POLL_NAMES.includes(name as PollName))
    throw new Error(`LOAD_ALONE: "${name}" is none of ${POLL_NAMES.join(", ")}`);
  return name as PollName;
});
if (!["spec", "heavy", "both", "alone"].includes(MIX))
  throw new Error("LOAD_MIX is spec, heavy, both or alone");

const say = (line = "") => process.stdout.write(`${line}\n`);

let targets: LoadServers | undefined;
const cleanup = async () => {
  await targets?.close();
  targets = undefined;
};
onInterrupt(cleanup);

const main = async () => {
  const began = performance.now();
  // LOAD_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server.
  targets = await startLoadServers({
    databaseUrl: process.env.DATABASE_URL || undefined,
    processes: PROCESSES,
    nodeArgs: process.env.LOAD_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [],
  });
  const { name, servers } = targets;
  const [first] = servers;
  if (!first) throw new Error("no server started");
  const rpcUrl = `http://127.0.0.1:${first.anvilPort}`;
  say(
    `load: ${USERS} users on ${servers.length} server process${servers.length === 1 ? "" : "es"} ` +
      `with ${name}, local chain (anvil, 1 s blocks), everything on this machine`,
  );
  const { users, stages } = await createLoadUsers(first.url, rpcUrl, {
    users: USERS,
    bundles: BUNDLES,
  });
  say(
    `  setup: ${Object.entries(stages)
      .map(([stage, s]) => `${stage} ${s.toFixed(1)} s`)
      .join(", ")}`,
  );
  const heavyWho = `${HEAVY_MIX.clients} clients, ${HEAVY_MIX.offeredRps} req/s offered`;
  const mixes =
    MIX === "alone"
      ? ALONE.map((route) => ({
          label: `${route} alone, ${heavyWho}`,
          clients: heavyPollsOf(users, { ...HEAVY_MIX, routes: [route] }),
          goalMs: GOAL_ALONE_P99_MS,
        }))
      : [
          ...(MIX === "heavy"
            ? []
            : [{ label: `${USERS} users`, clients: users.map(pollsOf), goalMs: GOAL_P99_MS }]),
          ...(MIX === "spec"
            ? []
            : [
                {
                  label: `heavy routes, ${heavyWho}`,
                  clients: heavyPollsOf(users),
                  goalMs: GOAL_P99_MS,
                },
              ]),
        ];
  for (const { label, clients, goalMs } of mixes) {
    say();
    say(
      `  ${label}${FLAT_OUT ? ", flat out" : ""}: polling for ${SECONDS} s after a ${WARMUP_SECONDS} s warm-up`,
    );
    const result = await measureMix(targets, {
      users: clients,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      flatOut: FLAT_OUT,
    });
    for (const line of reportLines(result, SECONDS, Boolean(process.env.LOAD_TIMELINE))) say(line);
    const met = result.p99Ms < goalMs && result.errors === 0;
    const figures = `p50 ${ms(result.p50Ms)}, max ${ms(result.maxMs)}, ${result.rps.toFixed(0)} req/s, ${result.errors} errors`;
    say(
      FLAT_OUT
        ? `load: ${label} ${name}, flat out: p99 ${ms(result.p99Ms)}   ${figures}`
        : `load: ${label} ${name} p99 ${ms(result.p99Ms)} (goal < ${goalMs} ms) — ${met ? "met" : "NOT met"}   ${figures}`,
    );
  }
  if (LAUNCHES > 0) {
    say();
    await runtimeOf(first.url, targets.adminKey, true);
    const started = performance.now();
    for (let n = 0; n < LAUNCHES; n++)
      await launchBundle(first.url, rpcUrl, (users[n % users.length] as { key: string }).key, 10);
    const seconds = (performance.now() - started) / 1000;
    say(`  ${LAUNCHES} launches of 10 wallets, one after another (${seconds.toFixed(1)} s):`);
    for (const line of eventLoopLines([await runtimeOf(first.url, targets.adminKey)])) say(line);
  }
  say();
  say(`bench took ${((performance.now() - began) / 1000).toFixed(0)} s`);
};

try {
  await main();
} finally {
  await cleanup();
}
