// What the load bench and the reliability row "load" share: the server(s) under load (a real
// server process with its local chain, on PGlite or on a fresh database of a Postgres), what
// each user's browser polls at SPEC §9's rates, the heavy routes in equal shares (issue 39),
// and the report of a run beside the server's own figures.
import { randomBytes } from "node:crypto";
import {
  bundleBalancesRoute,
  dispersalStatusRoute,
  getBumperRoute,
  listDraftsRoute,
  paymentStatusRoute,
  type RouteDef,
  type RuntimeResponse,
  txStatusRoute,
  validateKeyRoute,
  walletBalancesRoute,
} from "@bundler/shared";
import type { LoadUser } from "./load-users.ts";
import { type MixResult, type Poll, type PollingUser, runPollMix } from "./poll-mix.ts";
import { onPostgres } from "./postgres.ts";
import { cpuMsOf, makeDataDir, type RunningServer, removeDir, startServer } from "./server.ts";
import { eventLoopLines, runtimeOf, serverCell } from "./server-runtime.ts";

export interface LoadServers {
  /** "PGlite" or "Postgres". */
  name: string;
  servers: RunningServer[];
  /** The superadmin key the first server printed: it reads every server's own figures. */
  adminKey: string;
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
    if (!first.superadminKey) throw new Error("the server printed no superadmin key");
    return {
      name: databaseUrl ? "Postgres" : "PGlite",
      servers,
      adminKey: first.superadminKey,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
};

export type PollName =
  | "payment status"
  | "bundle balances"
  | "funding balances (50)"
  | "dispersal status"
  | "tx status"
  | "bumper status"
  | "key validate"
  | "draft list";

/** A request to `route` at `path`, named as the server names it. */
const to = (route: RouteDef, path: string, body?: unknown): Omit<Poll, "name" | "everyMs"> => ({
  method: route.method === "POST" ? "POST" : "GET",
  path,
  route: `${route.method} ${route.path}`,
  ...(body === undefined ? {} : { body }),
});

const REQUESTS: Record<PollName, (user: LoadUser) => Omit<Poll, "name" | "everyMs">> = {
  "payment status": (user) => to(paymentStatusRoute, `/api/draft/${user.draftId}/payment/status`),
  "bundle balances": (user) =>
    to(bundleBalancesRoute, `/api/bundle/wallets/balances?address=${user.bundleToken}`),
  "funding balances (50)": (user) =>
    to(walletBalancesRoute, "/api/wallets/balances", { addresses: user.fundingAddresses }),
  "dispersal status": (user) =>
    to(dispersalStatusRoute, `/api/wallets/disperse/status?dispersalId=${user.dispersalId}`),
  "tx status": (user) => to(txStatusRoute, "/api/bundle/tx/status", { txHashes: [user.txHash] }),
  "bumper status": (user) => to(getBumperRoute, `/api/bumper/${user.bumperId}`),
  "key validate": (user) => to(validateKeyRoute, "/api/auth/key/validate", { key: user.key }),
  "draft list": () => to(listDraftsRoute, "/api/draft/list?page=1"),
};

/** Every route a load client can poll, by name. */
export const POLL_NAMES = Object.keys(REQUESTS) as PollName[];

const poll = (user: LoadUser, name: PollName, everyMs: number): Poll => ({
  name,
  everyMs,
  ...REQUESTS[name](user),
});

/**
 * What one user's browser polls, at SPEC §9's rates (issue 13 for the bumper): payment status
 * 5 s, balances 10 s (the bundle's page for users with a bundle, else the create page's funding
 * panel of 50 addresses), dispersal status 10 s, tx status 3 s, bumper status 10 s, and the page
 * loads: key validate 60 s, draft list 30 s.
 */
export const pollsOf = (user: LoadUser): PollingUser => ({
  key: user.key,
  polls: [
    poll(user, "payment status", 5_000),
    poll(user, user.bundleToken ? "bundle balances" : "funding balances (50)", 10_000),
    poll(user, "dispersal status", 10_000),
    poll(user, "tx status", 3_000),
    poll(user, "bumper status", 10_000),
    poll(user, "key validate", 60_000),
    poll(user, "draft list", 30_000),
  ],
});

/** Issue 39's mix: the routes the web app polls that cost the most, in equal shares. */
const HEAVY_ROUTES: readonly PollName[] = [
  "key validate",
  "draft list",
  "payment status",
  "dispersal status",
  "funding balances (50)",
  "tx status",
];
export const HEAVY_MIX = { clients: 200, offeredRps: 150 } as const;
/** Issue 39's routes measured alone, each at the heavy mix's clients and offered rate. */
export const ALONE_ROUTES = ["payment status", "draft list"] as const satisfies PollName[];

/**
 * `clients` clients (taking the users in turn) each asking every one of `routes` (the heavy
 * routes unless told) once per `routes × clients / offeredRps` seconds: `offeredRps` in all,
 * each route an equal share.
 */
export const heavyPollsOf = (
  users: readonly LoadUser[],
  {
    clients,
    offeredRps,
    routes = HEAVY_ROUTES,
  }: { clients: number; offeredRps: number; routes?: readonly PollName[] } = HEAVY_MIX,
): PollingUser[] => {
  const everyMs = (routes.length * clients * 1000) / offeredRps;
  return Array.from({ length: clients }, (_, n) => {
    const user = users[n % users.length];
    if (!user) throw new Error("the heavy mix needs at least one user");
    return { key: user.key, polls: routes.map((name) => poll(user, name, everyMs)) };
  });
};

/**
 * A mix's client figures and each server process's own over the measured window, with the CPU
 * the server processes spent in it (ms, all processes; the database's own processes not counted).
 */
export type LoadRun = MixResult & { runtimes: RuntimeResponse[]; serverCpuMs: number };

/**
 * Runs the mix's users against the servers of `targets` (see runPollMix), resetting the
 * servers' own figures as the measured window begins and reading them at its end.
 */
export const measureMix = async (
  targets: LoadServers,
  mix: Omit<Parameters<typeof runPollMix>[0], "targets" | "atMeasureStart">,
): Promise<LoadRun> => {
  const urls = targets.servers.map((server) => server.url);
  const cpu = () => targets.servers.reduce((sum, server) => sum + cpuMsOf(server.pid), 0);
  let cpuFrom = 0;
  const result = await runPollMix({
    ...mix,
    targets: urls,
    atMeasureStart: () => {
      cpuFrom = cpu();
      return Promise.all(urls.map((url) => runtimeOf(url, targets.adminKey, true)));
    },
  });
  const serverCpuMs = cpu() - cpuFrom;
  const runtimes = await Promise.all(urls.map((url) => runtimeOf(url, targets.adminKey)));
  return { ...result, runtimes, serverCpuMs };
};

export const ms = (value: number): string =>
  Number.isFinite(value) ? `${Math.round(value)} ms` : "n/a";

/**
 * The run's figures as lines: per route, overall, and what was offered against answered; with
 * the servers' own figures, each route's server time (p50/p99/max ms, in the process where its
 * p99 was worst) beside the client's, and the event-loop delay.
 */
export const reportLines = (
  result: MixResult | LoadRun,
  seconds: number,
  timeline = false,
): string[] => {
  const runtimes = "runtimes" in result ? result.runtimes : undefined;
  const server = (cell: string) => (runtimes ? ` ${cell.padStart(17)}` : "");
  const lines: string[] = [];
  if (timeline)
    for (const { second, requests, p99Ms, maxMs } of result.timeline)
      lines.push(
        `  second ${String(second).padStart(3)}: ${requests} sent, p99 ${ms(p99Ms)}, max ${ms(maxMs)}`,
      );
  lines.push(
    `  ${"route".padEnd(22)} ${"requests".padStart(8)} ${"req/s".padStart(7)} ${"p50".padStart(8)} ` +
      `${"p99".padStart(8)} ${"max".padStart(8)} ${"errors".padStart(7)}` +
      server("server p50/p99/max"),
  );
  const rows = Object.entries(result.routes).sort(([a], [b]) => a.localeCompare(b));
  for (const [name, route] of rows)
    lines.push(
      `  ${name.padEnd(22)} ${String(route.requests).padStart(8)} ` +
        `${(route.requests / seconds).toFixed(1).padStart(7)} ${ms(route.p50Ms).padStart(8)} ` +
        `${ms(route.p99Ms).padStart(8)} ${ms(route.maxMs).padStart(8)} ${String(route.errors).padStart(7)}` +
        server(runtimes ? serverCell(runtimes, route.route) : ""),
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
  if (runtimes) lines.push(...eventLoopLines(runtimes));
  if ("serverCpuMs" in result && result.requests > 0)
    lines.push(
      `  server CPU: ${(result.serverCpuMs / 1000).toFixed(1)} s, ` +
        `${(result.serverCpuMs / result.requests).toFixed(2)} ms per request answered`,
    );
  return lines;
};
