// Many users polling at once (issue "several server processes", "Serving many users at once"):
// one real server process (apps/server/src/main.ts with its local chain) on the embedded
// database, or on a fresh database of the Postgres at DATABASE_URL; LOAD_USERS users set up
// through the API (a key, a draft with its payment open, a dispersal waiting for funding, a
// mined transaction; the first LOAD_BUNDLES with a launched bundle), then every user polls at
// the web app's rates for LOAD_SECONDS after a warm-up:
//   payment status 5 s, balances 10 s (the bundle's page for users with a bundle, else the
//   create page's funding panel of 50 addresses), dispersal status 10 s, tx status 3 s,
//   key validate 60 s and draft list 30 s (page loads).
// Prints p50/p99 latency, req/s and errors, overall and per route, and the goal line.
// LOAD_PROCESSES=3 with DATABASE_URL spreads the users over three processes on one Postgres.
// Asserts nothing. LOAD_USERS (500), LOAD_SECONDS (30), LOAD_WARMUP_SECONDS (10), LOAD_BUNDLES (5).
import { randomBytes } from "node:crypto";
import { createLoadUsers, type LoadUser } from "./lib/load-users.ts";
import { onInterrupt } from "./lib/on-interrupt.ts";
import { type MixResult, type PollingUser, runPollMix } from "./lib/poll-mix.ts";
import { onPostgres } from "./lib/postgres.ts";
import {
  makeDataDir,
  type RunningServer,
  removeDir,
  startServer,
  stopAllServers,
} from "./lib/server.ts";

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

const say = (line = "") => process.stdout.write(`${line}\n`);

const dataDirs: string[] = [];
let database: string | undefined;

const cleanup = async () => {
  await stopAllServers();
  for (const dir of dataDirs.splice(0)) removeDir(dir);
  if (database) await onPostgres(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  database = undefined;
};
onInterrupt(cleanup);

/**
 * The servers the users are spread over, and the anvil they share: one process today; a
 * several-process variant starts more on one Postgres and answers all their URLs.
 */
const startTargets = async (): Promise<{ name: string; servers: RunningServer[] }> => {
  const dataDir = makeDataDir();
  dataDirs.push(dataDir);
  const env: Record<string, string> = {
    FREE_KEYS_PER_IP_PER_DAY: "1000000",
    FREE_KEY_LIMIT_PER_HOUR: "1000000",
    DATABASE_URL: "",
  };
  let name = "PGlite";
  if (process.env.DATABASE_URL) {
    database = `lb_load_${randomBytes(4).toString("hex")}`;
    await onPostgres(`CREATE DATABASE ${database}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${database}`;
    env.DATABASE_URL = url.toString();
    name = "Postgres";
  }
  // LOAD_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server.
  const nodeArgs = process.env.LOAD_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const first = await startServer({ dataDir, env, nodeArgs });
  const servers = [first];
  // LOAD_PROCESSES=3 (with DATABASE_URL): the others attach to the first one's chain.
  if (PROCESSES > 1 && !process.env.DATABASE_URL)
    throw new Error("LOAD_PROCESSES > 1 needs DATABASE_URL (PGlite is one process)");
  for (let n = 1; n < PROCESSES; n++)
    servers.push(
      await startServer({
        dataDir,
        env: { ...env, LOCAL_BUILDER_URL: first.builderUrl ?? "" },
        nodeArgs,
      }),
    );
  return { name, servers };
};

/** What one user's browser polls, at SPEC §9's rates. */
const pollsOf = (user: LoadUser): PollingUser => ({
  key: user.key,
  polls: [
    {
      name: "payment status",
      everyMs: 5_000,
      method: "GET",
      path: `/api/draft/${user.draftId}/payment/status`,
    },
    user.bundleToken
      ? {
          name: "bundle balances",
          everyMs: 10_000,
          method: "GET",
          path: `/api/bundle/wallets/balances?address=${user.bundleToken}`,
        }
      : {
          name: "funding balances (50)",
          everyMs: 10_000,
          method: "POST",
          path: "/api/wallets/balances",
          body: { addresses: user.fundingAddresses },
        },
    {
      name: "dispersal status",
      everyMs: 10_000,
      method: "GET",
      path: `/api/wallets/disperse/status?dispersalId=${user.dispersalId}`,
    },
    {
      name: "tx status",
      everyMs: 3_000,
      method: "POST",
      path: "/api/bundle/tx/status",
      body: { txHashes: [user.txHash] },
    },
    {
      name: "key validate",
      everyMs: 60_000,
      method: "POST",
      path: "/api/auth/key/validate",
      body: { key: user.key },
    },
    { name: "draft list", everyMs: 30_000, method: "GET", path: "/api/draft/list?page=1" },
  ],
});

const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : "n/a");

const report = (result: MixResult) => {
  if (process.env.LOAD_TIMELINE)
    for (const { second, requests, p99Ms, maxMs } of result.timeline)
      say(
        `  second ${String(second).padStart(3)}: ${requests} sent, p99 ${ms(p99Ms)}, max ${ms(maxMs)}`,
      );
  say(
    `  ${"route".padEnd(22)} ${"requests".padStart(8)} ${"req/s".padStart(7)} ${"p50".padStart(8)} ` +
      `${"p99".padStart(8)} ${"max".padStart(8)} ${"errors".padStart(7)}`,
  );
  const rows = Object.entries(result.routes).sort(([a], [b]) => a.localeCompare(b));
  for (const [name, route] of rows)
    say(
      `  ${name.padEnd(22)} ${String(route.requests).padStart(8)} ` +
        `${(route.requests / SECONDS).toFixed(1).padStart(7)} ${ms(route.p50Ms).padStart(8)} ` +
        `${ms(route.p99Ms).padStart(8)} ${ms(route.maxMs).padStart(8)} ${String(route.errors).padStart(7)}`,
    );
  say(
    `  ${"all".padEnd(22)} ${String(result.requests).padStart(8)} ${result.rps.toFixed(1).padStart(7)} ` +
      `${ms(result.p50Ms).padStart(8)} ${ms(result.p99Ms).padStart(8)} ${ms(result.maxMs).padStart(8)} ` +
      `${String(result.errors).padStart(7)}`,
  );
  say(
    `  offered ${result.offeredRps.toFixed(1)} req/s, answered ${result.rps.toFixed(1)} req/s ` +
      `(${(result.rps / result.offeredRps).toFixed(2)}x); polls skipped while the previous was unanswered: ` +
      `${result.skipped}; errors ${result.errors}${result.errors > 0 ? ` ${JSON.stringify(result.errorKinds)}` : ""}`,
  );
};

const main = async () => {
  const began = performance.now();
  const { name, servers } = await startTargets();
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
  say(`  polling for ${SECONDS} s after a ${WARMUP_SECONDS} s warm-up`);
  const result = await runPollMix({
    targets: servers.map((server) => server.url),
    users: users.map(pollsOf),
    seconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
  });
  report(result);
  const met = result.p99Ms < GOAL_P99_MS && result.errors === 0;
  say();
  say(
    `load: ${USERS} users ${name} p99 ${ms(result.p99Ms)} (goal < ${GOAL_P99_MS} ms) — ${met ? "met" : "NOT met"}` +
      `   p50 ${ms(result.p50Ms)}, ${result.rps.toFixed(0)} req/s, ${result.errors} errors`,
  );
  say(`bench took ${((performance.now() - began) / 1000).toFixed(0)} s`);
};

try {
  await main();
} finally {
  await cleanup();
}
