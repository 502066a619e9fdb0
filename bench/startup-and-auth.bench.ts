// Startup time (cold: empty data dir; warm: same dir again) and the cost of auth
// (POST /api/auth/key/validate against GET /api/health) on the real server: on the embedded
// database, and on Postgres too when DATABASE_URL is set (in a fresh database, dropped after).
// Validate should be close to health (target >= 0.8x): a cached key costs no database read.
// Prints figures and ratios; asserts nothing.
import { randomBytes, randomUUID } from "node:crypto";
import { type LoadResult, type LoadTarget, measure } from "./lib/load.ts";
import { onInterrupt } from "./lib/on-interrupt.ts";
import { onPostgres } from "./lib/postgres.ts";
import {
  anvilPids,
  makeDataDir,
  type RunningServer,
  removeDir,
  startServer,
  stopAllServers,
} from "./lib/server.ts";

const RUNS = 3;
const CONNECTIONS = 50;
const SECONDS = 10;
const WARMUP_SECONDS = 2;
/**
 * Validate and health run in turns, this many rounds of ROUND_SECONDS each, and the ratio is
 * the median of the rounds': a shared machine's speed drifts over a minute, and one long run of
 * each would measure the drift as much as the routes.
 */
const ROUNDS = 5;
const ROUND_SECONDS = 4;

const say = (line = "") => process.stdout.write(`${line}\n`);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const seconds = (value: number) => `${value.toFixed(2)} s`;
const rps = (value: number) => `${Math.round(value)} req/s`;
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(1)}x` : "n/a");
const authRatio = (r: { validate: LoadResult; health: LoadResult }) =>
  r.validate.rps / r.health.rps;

const dataDirs = new Set<string>();
const anvilPorts = new Set<number>();
const databases = new Set<string>();

const cleanup = async () => {
  await stopAllServers();
  for (const dir of dataDirs) removeDir(dir);
  dataDirs.clear();
  for (const name of databases) await onPostgres(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  databases.clear();
};

onInterrupt(cleanup);

const start = async (dataDir: string) => {
  // Cold and warm starts are of the embedded database, whatever the shell has set.
  const server = await startServer({ dataDir, env: { DATABASE_URL: "" } });
  anvilPorts.add(server.anvilPort);
  return server;
};

const startup = async () => {
  const cold: number[] = [];
  const warm: number[] = [];
  let running: RunningServer | undefined;
  for (let run = 1; run <= RUNS; run++) {
    const dataDir = makeDataDir();
    dataDirs.add(dataDir);
    const first = await start(dataDir);
    cold.push(first.readySeconds);
    await first.stop();
    const second = await start(dataDir);
    warm.push(second.readySeconds);
    say(
      `  run ${run}/${RUNS}: cold ${seconds(first.readySeconds)}, warm ${seconds(second.readySeconds)}`,
    );
    if (run < RUNS) {
      await second.stop();
      removeDir(dataDir);
      dataDirs.delete(dataDir);
    } else running = second; // the last warm server is kept for the load test
  }
  if (!running) throw new Error("no server left running");
  return { cold: median(cold), warm: median(warm), running };
};

const mintKey = async (server: RunningServer): Promise<string> => {
  const response = await fetch(`${server.url}/api/auth/key/generate-free`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ deviceId: `bench-device-${randomUUID()}`, userAgent: "bench" }),
  });
  const body = (await response.json()) as { success?: boolean; key?: string; error?: string };
  if (!response.ok || !body.success || !body.key)
    throw new Error(`generate-free answered ${response.status}: ${JSON.stringify(body)}`);
  return body.key;
};

const load = async (name: string, target: LoadTarget) => {
  const result = await measure(target, {
    connections: CONNECTIONS,
    seconds: SECONDS,
    warmupSeconds: WARMUP_SECONDS,
  });
  say(
    `  ${name.padEnd(9)} ${rps(result.rps).padStart(12)}  p99 ${result.p99Ms} ms  ` +
      `total ${result.total}  non-2xx ${result.non2xx}  errors ${result.errors}  ` +
      `timeouts ${result.timeouts}  status ${JSON.stringify(result.statusCodes)}`,
  );
  return result;
};

const auth = async (server: RunningServer) => {
  const key = await mintKey(server);
  const validateTarget: LoadTarget = {
    url: `${server.url}/api/auth/key/validate`,
    method: "POST",
    json: { key },
  };
  const healthTarget: LoadTarget = { url: `${server.url}/api/health` };
  const rounds: { validate: LoadResult; health: LoadResult }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const options = { connections: CONNECTIONS, seconds: ROUND_SECONDS, warmupSeconds: 1 };
    const validate = await measure(validateTarget, options);
    const health = await measure(healthTarget, options);
    rounds.push({ validate, health });
    say(
      `  round ${round}/${ROUNDS}: validate ${rps(validate.rps)} p99 ${validate.p99Ms} ms ` +
        `(non-2xx ${validate.non2xx}, errors ${validate.errors}) | health ${rps(health.rps)} ` +
        `p99 ${health.p99Ms} ms (non-2xx ${health.non2xx}, errors ${health.errors}) | ` +
        `${authRatio({ validate, health }).toFixed(2)}x`,
    );
  }
  // The round with the median ratio stands for all of them.
  const ranked = [...rounds].sort((a, b) => authRatio(a) - authRatio(b));
  const { validate, health } = ranked[Math.floor(ranked.length / 2)] as (typeof rounds)[number];
  const failures = rounds.reduce(
    (sum, r) => sum + r.validate.non2xx + r.validate.errors + r.health.non2xx + r.health.errors,
    0,
  );
  // A public route with a DB read; the key header is sent as the web app would.
  const news = await load("news", {
    url: `${server.url}/api/news`,
    headers: { "x-auth-key": key },
  });
  return { validate, health, news, failures };
};

const describe = (name: string, result: LoadResult) =>
  `${name} ${rps(result.rps)} p99 ${result.p99Ms} ms (non-2xx ${result.non2xx})`;

/** The same load on a server using a fresh database on the Postgres at DATABASE_URL. */
const postgresAuth = async (baseUrl: string) => {
  const name = `lb_bench_${randomBytes(4).toString("hex")}`;
  await onPostgres(`CREATE DATABASE ${name}`);
  databases.add(name);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const dataDir = makeDataDir();
  dataDirs.add(dataDir);
  const server = await startServer({ dataDir, env: { DATABASE_URL: url.toString() } });
  anvilPorts.add(server.anvilPort);
  try {
    return await auth(server);
  } finally {
    await server.stop();
  }
};

const authLine = (
  database: string,
  { validate, health, failures }: Awaited<ReturnType<typeof auth>>,
) =>
  `auth      ${database.padEnd(8)} ${describe("validate", validate)} | ${describe("health", health)} | ` +
  `validate/health ${authRatio({ validate, health }).toFixed(2)}x (target >= 0.8x; median of ${ROUNDS} rounds)   ` +
  `p99 validate/health ${ratio(validate.p99Ms, health.p99Ms)}   failed requests ${failures}`;

const main = async () => {
  const began = performance.now();
  say(`startup: ${RUNS} cold + ${RUNS} warm starts of apps/server/src/main.ts`);
  const times = await startup();
  say(
    `auth: autocannon, ${CONNECTIONS} connections; validate and health in turns, ${ROUNDS} rounds of ${ROUND_SECONDS} s after 1 s of warm-up; news ${SECONDS} s after ${WARMUP_SECONDS} s`,
  );
  say("  on pglite");
  const results = await auth(times.running);
  await times.running.stop();
  const postgresUrl = process.env.DATABASE_URL;
  if (postgresUrl) say("  on postgres");
  const onPg = postgresUrl ? await postgresAuth(postgresUrl) : undefined;
  const leftover = [...anvilPorts].flatMap(anvilPids);

  const { validate, health, news } = results;
  say();
  say(
    `startup   cold ${times.cold.toFixed(1)} s (median of ${RUNS})   ` +
      `warm ${times.warm.toFixed(1)} s (median of ${RUNS})   cold/warm ${(times.cold / times.warm).toFixed(1)}x`,
  );
  say(authLine("pglite", results));
  say(onPg ? authLine("postgres", onPg) : "auth      postgres (set DATABASE_URL to measure it)");
  say(
    `db read   ${describe("news", news)} | health/news ${(health.rps / news.rps).toFixed(1)}x | ` +
      `news/validate ${(news.rps / validate.rps).toFixed(1)}x`,
  );
  say(
    `cleanup   anvil processes left on bench ports: ${leftover.length}   ` +
      `bench took ${((performance.now() - began) / 1000).toFixed(0)} s`,
  );
};

try {
  await main();
} finally {
  await cleanup();
}
