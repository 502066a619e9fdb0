// The server's own figures for a load run (GET /api/admin/dashboard/runtime): how late its
// event loop ran and how long it took per route, over the window the load mixes reset after
// their warm-up. Read with an admin key (the superadmin key a fresh data dir prints).
import { adminRuntimeRoute, type RuntimeResponse, resetAdminRuntimeRoute } from "@bundler/shared";
import { apiAt } from "./load-users.ts";

/** The server's figures since its last reset; with `reset`, those of the window it ends. */
export const runtimeOf = (
  url: string,
  adminKey: string,
  reset = false,
): Promise<RuntimeResponse> => {
  const route = reset ? resetAdminRuntimeRoute : adminRuntimeRoute;
  return apiAt(url)<RuntimeResponse>(route.method, route.path, undefined, adminKey);
};

const fixed = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(ms < 10 ? 1 : 0) : "n/a");

/** One line per server process: its event-loop delay in the window. */
export const eventLoopLines = (runtimes: readonly RuntimeResponse[]): string[] =>
  runtimes.map(
    ({ eventLoopDelayMs: { p50, p99, max } }, n) =>
      `  event-loop delay${runtimes.length > 1 ? ` (process ${n + 1})` : ""}: ` +
      `p50 ${fixed(p50)} ms, p99 ${fixed(p99)} ms, max ${fixed(max)} ms`,
  );

/** `route`'s server time ("p50/p99/max" ms) in the process where its p99 was worst. */
export const serverCell = (runtimes: readonly RuntimeResponse[], route: string | undefined) => {
  const answers = runtimes.flatMap((runtime) => runtime.routes.filter((r) => r.route === route));
  const worst = answers.sort((a, b) => b.p99Ms - a.p99Ms)[0];
  return worst ? `${fixed(worst.p50Ms)}/${fixed(worst.p99Ms)}/${fixed(worst.maxMs)}` : "-";
};
