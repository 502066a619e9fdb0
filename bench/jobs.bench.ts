// Jobs through pg-boss on each database: the time from `send` to the handler starting, for
// work the same process enqueued (its own worker is woken at once) and for work another
// process enqueued (picked up on the worker's poll, 1 s by default). On the embedded PGlite
// always, and on Postgres too when DATABASE_URL is set (in a fresh database, dropped after).
// Goal: p95 < 100 ms for same-process work. Prints figures; asserts nothing.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../apps/server/src/db/client.ts";
import { JobEngine } from "../apps/server/src/lib/jobs.ts";

const JOBS = 200;
const say = (line = "") => process.stdout.write(`${line}\n`);
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
};

const latencies = async (database: Database, crossProcess: boolean) => {
  const worker = await JobEngine.start(database.jobStore);
  const sender = crossProcess ? await JobEngine.start(database.jobStore) : worker;
  const seen: number[] = [];
  let next: () => void = () => {};
  await worker.queue<{ at: number }>({ name: "bench" }, async (data) => {
    seen.push(performance.now() - data.at);
    next();
  });
  for (let i = 0; i < JOBS; i++) {
    const ran = new Promise<void>((resolve) => {
      next = resolve;
    });
    await sender.send("bench", { at: performance.now() });
    await ran;
    // Spaced like real work: not a queue drained in one fetch.
    await new Promise((resolve) => setTimeout(resolve, crossProcess ? 0 : 5));
    if (crossProcess && i >= 19) break;
  }
  if (sender !== worker) await sender.stop();
  await worker.stop();
  return seen;
};

const report = async (label: string, database: Database) => {
  const own = await latencies(database, false);
  const other = await latencies(database, true);
  const p95 = pct(own, 95);
  say(
    `${label}: enqueue → handler start, same process: p50 ${pct(own, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (${own.length} jobs; goal p95 < 100 ms: ${p95 < 100 ? "met" : "NOT met"})`,
  );
  say(
    `${label}: enqueue → handler start, another process: p50 ${pct(other, 50).toFixed(0)} ms, p95 ${pct(other, 95).toFixed(0)} ms (${other.length} jobs, by its 1 s poll)`,
  );
  say(
    `${label}: same process is ${(pct(other, 50) / pct(own, 50)).toFixed(0)}x faster at p50 than waiting for a poll`,
  );
};

const pglite = await openDatabase({ dataDir: null });
await report("PGlite", pglite);
await pglite.close();

const url = process.env.DATABASE_URL;
if (url) {
  const name = `lb_bench_jobs_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const target = new URL(url);
    target.pathname = `/${name}`;
    const postgres = await openDatabase({ databaseUrl: target.toString(), dataDir: null });
    await report("Postgres", postgres);
    await postgres.close();
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
} else {
  say("Postgres: skipped (set DATABASE_URL to measure it too)");
}
