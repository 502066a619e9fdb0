// What the load bench and the reliability row "load" share: the server(s) under load (a real
// server process with its local chain, on PGlite or on a fresh database of a Postgres), what
// each user's browser polls at SPEC §9's rates, and the report of a run.
import { randomBytes } from "node:crypto";
import type { LoadUser } from "./load-users.ts";
import type { MixResult, PollingUser } from "./poll-mix.ts";
import { onPostgres } from "./postgres.ts";
import { makeDataDir, type RunningServer, removeDir, startServer } from "./server.ts";

export interface LoadServers {
  /** "PGlite" or "Postgres". */
  name: string;
  servers: RunningServer[];
  /** Stops the servers, removes the data dir and drops the Postgres database. */
  close(): Promise<void>;
}

/**
 * `processes` server processes sharing one chain, on PGlite (no `databaseUrl`) or on a fresh
 * database of the Postgres at `databaseUrl` (several processes need Postgres). Free keys and the
 * rate limit are opened wide: the load is many users, not one abuser.
 * `nodeArgs` ("--cpu-prof --cpu-prof-dir=/tmp/prof") go to every server process.
 */
export const startLoadServers = async ({
  databaseUrl,
  processes = 1,
  nodeArgs = [],
  env: extraEnv = {},
}: {
  databaseUrl?: string | undefined;
  processes?: number;
  nodeArgs?: string[];
  env?: Record<string, string>;
}): Promise<LoadServers> => {
  if (processes > 1 && !databaseUrl)
    throw new Error("several server processes need Postgres (PGlite is one process)");
  const dataDir = makeDataDir();
  const servers: RunningServer[] = [];
  let database: string | undefined;
  const close = async () => {
    await Promise.all(servers.map((server) => server.stop()));
    removeDir(dataDir);
    if (database) await onPostgres(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`, databaseUrl);
    database = undefined;
  };
  try {
    const env: Record<string, string> = {
      FREE_KEYS_PER_IP_PER_DAY: "1000000",
      FREE_KEY_LIMIT_PER_HOUR: "1000000",
      DATABASE_URL: "",
      ...extraEnv,
    };
    if (databaseUrl) {
      database = `lb_load_${randomBytes(4).toString("hex")}`;
      await onPostgres(`CREATE DATABASE ${database}`, databaseUrl);
      const url = new URL(databaseUrl);
      url.pathname = `/${database}`;
      env.DATABASE_URL = url.toString();
    }
    const first = await startServer({ dataDir, env, nodeArgs });
    servers.push(first);
    // The others attach to the first one's chain.
    for (let n = 1; n < processes; n++)
      servers.push(
        await startServer({
          dataDir,
          env: { ...env, LOCAL_BUILDER_URL: first.builderUrl ?? "" },
          nodeArgs,
        }),
      );
    return { name: databaseUrl ? "Postgres" : "PGlite", servers, close };
  } catch (error) {
    await close();
    throw error;
  }
};

/**
 * What one user's browser polls, at SPEC §9's rates (issue 13 for the bumper): payment status
 * 5 s, balances 10 s (the bundle's page for users with a bundle, else the create page's funding
 * panel of 50 addresses), dispersal status 10 s, tx status 3 s, bumper status 10 s, and the page
 * loads: key validate 60 s, draft list 30 s.
 */
export const pollsOf = (user: LoadUser): PollingUser => ({
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
      name: "bumper status",
      everyMs: 10_000,
      method: "GET",
      path: `/api/bumper/${user.bumperId}`,
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

export const ms = (value: number): string =>
  Number.isFinite(value) ? `${Math.round(value)} ms` : "n/a";

/** The run's figures as lines: per route, overall, and what was offered against answered. */
export const reportLines = (result: MixResult, seconds: number, timeline = false): string[] => {
  const lines: string[] = [];
  if (timeline)
    for (const { second, requests, p99Ms, maxMs } of result.timeline)
      lines.push(
        `  second ${String(second).padStart(3)}: ${requests} sent, p99 ${ms(p99Ms)}, max ${ms(maxMs)}`,
      );
  lines.push(
    `  ${"route".padEnd(22)} ${"requests".padStart(8)} ${"req/s".padStart(7)} ${"p50".padStart(8)} ` +
      `${"p99".padStart(8)} ${"max".padStart(8)} ${"errors".padStart(7)}`,
  );
  const rows = Object.entries(result.routes).sort(([a], [b]) => a.localeCompare(b));
  for (const [name, route] of rows)
    lines.push(
      `  ${name.padEnd(22)} ${String(route.requests).padStart(8)} ` +
        `${(route.requests / seconds).toFixed(1).padStart(7)} ${ms(route.p50Ms).padStart(8)} ` +
        `${ms(route.p99Ms).padStart(8)} ${ms(route.maxMs).padStart(8)} ${String(route.errors).padStart(7)}`,
    );
  lines.push(
    `  ${"all".padEnd(22)} ${String(result.requests).padStart(8)} ${result.rps.toFixed(1).padStart(7)} ` +
      `${ms(result.p50Ms).padStart(8)} ${ms(result.p99Ms).padStart(8)} ${ms(result.maxMs).padStart(8)} ` +
      `${String(result.errors).padStart(7)}`,
  );
  lines.push(
    `  offered ${Number.isFinite(result.offeredRps) ? `${result.offeredRps.toFixed(1)} req/s` : "all it can take"}, ` +
      `answered ${result.rps.toFixed(1)} req/s; polls skipped while the previous was unanswered: ` +
      `${result.skipped}; errors ${result.errors}${result.errors > 0 ? ` ${JSON.stringify(result.errorKinds)}` : ""}`,
  );
  return lines;
};
