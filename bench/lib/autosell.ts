// The auto-sell bench's helpers: the rules of its 1,000-rule pass, the timing of the pass's
// steps, and a fresh database on the Postgres at DATABASE_URL when one is given.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "../../apps/server/src/db/client.ts";
import type { ChainContext } from "../../apps/server/src/lib/chain-context.ts";
import { AutosellPassRepository } from "../../apps/server/src/modules/autosell/autosell-pass.repository.ts";
import { AutosellReader } from "../../apps/server/src/modules/autosell/autosell-readings.ts";
import { PnlRepository } from "../../apps/server/src/modules/pnl/pnl.repository.ts";

export const READ = "read, all inputs (in parallel:)";

/**
 * Times the pass's steps: each wrapped method's span in a pass, from its first call's start to
 * its last call's end (steps run in parallel inside the read). Timing only: each call goes on.
 */
export const timeSteps = (chain: ChainContext, into: Map<string, { from: number; to: number }>) => {
  const note = (label: string, from: number) => {
    const span = into.get(label);
    into.set(label, { from: Math.min(span?.from ?? from, from), to: performance.now() });
  };
  const wrap = (proto: object, name: string, label: string) => {
    const target = proto as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const original = target[name] as (...args: unknown[]) => Promise<unknown>;
    target[name] = async function (this: unknown, ...args: unknown[]) {
      const from = performance.now();
      try {
        return await original.apply(this, args);
      } finally {
        note(label, from);
      }
    };
  };
  wrap(AutosellPassRepository.prototype, "armed", "armed rules (SQL)");
  wrap(PnlRepository.prototype, "bundles", "bundles (SQL)");
  wrap(AutosellReader.prototype, "read", READ);
  wrap(AutosellReader.prototype, "infos", "  multicall: price, funds, launch");
  wrap(AutosellReader.prototype, "outside", "  outside trading: events + flows");
  wrap(PnlRepository.prototype, "sumsOf", "  ledger sums (SQL)");
  wrap(AutosellPassRepository.prototype, "saveReadings", "save readings (SQL)");
  wrap(AutosellPassRepository.prototype, "selling", "firings selling (SQL)");
  // The exit simulations (pnl-exit's bundleWorth, read once per block through chain.reads).
  const reads = chain.reads as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const once = (reads.once as (...args: unknown[]) => Promise<unknown>).bind(chain.reads);
  reads.once = async (...args: unknown[]) => {
    const from = performance.now();
    try {
      return await once(...args);
    } finally {
      if (String(args[0]).startsWith("pnl-worth:")) note("  exit simulations", from);
    }
  };
};

/** Token `t`'s 10 rules: none can fire on the local chain; every tenth token has a take profit. */
export const rulesFor = (t: number): unknown[] => {
  const cap = { type: "marketCap", atLeast: "100000", unit: "BNB" };
  const guard = { type: "outsideBuys", atLeastBnb: "1000" };
  const later = { type: "time", afterMinutes: 500_000 };
  return [
    { any: [cap] },
    { any: [{ type: "marketCap", atLeast: "100000000", unit: "USD" }] },
    { any: [{ type: "curveProgress", atLeastPercent: 99 }] },
    { any: [guard] },
    { any: [{ ...guard, withinBlocks: 20 }] },
    { any: [{ type: "time", at: "2030-01-01T00:00:00Z" }] },
    // "Minutes after launch" reads the launchpad's launchTime, 0 for tokens created to trade at
    // once (the app's create arguments): alone it fires at the first pass, so it goes with a cap.
    { all: [cap, later] },
    { any: [{ type: "priceMultiple", atLeast: "1000" }] },
    { all: [cap, { ...guard, withinBlocks: 50 }] },
    t % 10 === 0
      ? { any: [{ type: "takeProfit", pnlPercent: 100_000 }] }
      : { all: [{ type: "curveProgress", atLeastPercent: 99 }, later] },
  ];
};

/**
 * A fresh database on the Postgres at `url` (dropped by `drop`), migrated: the pass's SQL as a
 * server on Postgres runs it, outside the server's process.
 */
export const freshPostgres = async (
  url: string,
): Promise<{ database: Database; drop(): Promise<void> }> => {
  const name = `lb_bench_autosell_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: target.toString(), dataDir: null });
  return {
    database,
    drop: async () => {
      await database.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
};
