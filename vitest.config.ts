import { defineConfig } from "vitest/config";

const POSTGRES_FILES = [
  "apps/server/src/db/*.int.test.ts",
  "apps/server/src/test/*.int.test.ts",
  "apps/server/src/lib/{access,jobs,limits,per-block-due,realtime,realtime-processes}.int.test.ts",
  "apps/server/src/{main,scale-out}.int.test.ts",
  "apps/server/src/modules/transactions/*.int.test.ts",
  "apps/server/src/modules/*/*-safety.int.test.ts",
  "apps/server/src/modules/*/*.crash.int.test.ts",
  "apps/server/src/modules/bundles/sell-requests.int.test.ts",
  "apps/server/src/modules/builders/builders.int.test.ts",
  "apps/server/src/modules/builders/builder-statuses.int.test.ts",
  "apps/server/src/modules/autosell/autosell.engine.int.test.ts",
  "apps/server/src/modules/auth/auth.cache.int.test.ts",
  "apps/server/src/modules/admin/admin.int.test.ts",
  "apps/server/src/modules/builders/builders-stats.int.test.ts",
  "apps/server/src/modules/referral/referral-{claims,payouts}.int.test.ts",
];

/**
 * One runner for everything. `unit` is pure logic; `web` renders the web app's components
 * in jsdom against msw handlers; `integration` talks to a real anvil and a real database;
 * `postgres` is a part of `integration` again on Postgres (.ci/run sets DATABASE_URL);
 * `e2e` drives Debian's Chromium against the real server; `reliability` is the reduced run of
 * `npm run reliability` (reliability/rows.ts), after the rest.
 */
export default defineConfig({
  test: {
    reporters: ["default", "./scripts/summary-reporter.ts"],
    // Two files at a time on this 2-core machine (vitest's default is cores - 1): most of a
    // test's time is waiting for a block, a server or a browser, not computing.
    maxWorkers: 2,
    // `isolate: false` (unit, web, integration, postgres): a worker runs its files in one
    // module graph (vitest's default gives each file a fresh one); most of a file's time here
    // was importing the server's or the web app's modules again, file after file. On
    // 2026-11-28 the unit project took 33 s instead of 140 s, web 47 s instead of 128 s,
    // integration 5.6 min instead of about 8.5. Files still get their own database, chain and
    // jsdom document; the e2e and reliability files, which start servers and browsers, keep
    // their own graph.
    projects: [
      {
        test: {
          name: "unit",
          isolate: false,
          include: [
            "packages/*/src/**/*.test.ts",
            "apps/*/src/**/*.test.ts",
            "reliability/**/*.test.ts",
          ],
          exclude: ["**/*.int.test.ts", "**/node_modules/**", "reliability/reliability.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "web",
          isolate: false,
          include: ["apps/web/src/**/*.test.tsx"],
          environment: "jsdom",
          setupFiles: ["./apps/web/src/testing/setup.ts"],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: "integration",
          isolate: false,
          include: ["packages/*/src/**/*.int.test.ts", "apps/*/src/**/*.int.test.ts"],
          environment: "node",
          globalSetup: ["./scripts/test-global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The Postgres pass (`.ci/run`, DATABASE_URL set): the integration files whose SQL the two
        // databases treat differently (locks, LISTEN/NOTIFY, pools, several processes: the job
        // engine, the transaction manager, the repositories' races, scale-out, crashes), not
        // every integration file a second time; two files at a time, each on a database of its own.
        test: {
          name: "postgres",
          isolate: false,
          include: POSTGRES_FILES,
          environment: "node",
          globalSetup: ["./scripts/test-global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: "reliability",
          include: ["reliability/reliability.test.ts"],
          environment: "node",
          testTimeout: 600_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
