// Clients polling the server the way the web app does (SPEC §9's timings): each user runs one
// timer per poll; a poll whose previous request is still unanswered is skipped (react-query
// does not stack refetches). Users are spread round-robin over `targets`, so the same mix can
// be aimed at several server processes. Latency is measured from the request's start to its
// last byte, over node:http keep-alive connections. Flat out, each user sends its polls in turn
// back to back, the next one as soon as the previous is answered: as much as the server takes.
import { Agent, request } from "node:http";
import { percentile } from "./localChain.ts";

/** One request a user repeats every `everyMs`. */
export interface Poll {
  /** The route's name in the report ("payment status"). */
  name: string;
  everyMs: number;
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  /** The server's name for the route, method and pattern ("GET /api/draft/:id/payment/status"). */
  route?: string;
}

/** A user: its access key and its polls. */
export interface PollingUser {
  key: string;
  polls: Poll[];
}

export interface RouteFigures {
  /** The server's name for the route (`Poll.route`), when the polls give it. */
  route?: string;
  requests: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface MixResult {
  /** Requests answered in the measured window (warm-up excluded). */
  requests: number;
  /** Requests answered during the warm-up (the server's CPU time includes them). */
  warmupRequests: number;
  /** Answered per second in the measured window. */
  rps: number;
  /** What the schedule asks per second (every poll at its rate). */
  offeredRps: number;
  /** Polls skipped because the previous one of the same user and route was still unanswered. */
  skipped: number;
  /** Non-2xx answers, network errors and timeouts. */
  errors: number;
  /** Per second of the measured window (by when requests were sent): answered, p99 and max. */
  timeline: Array<{ second: number; requests: number; p99Ms: number; maxMs: number }>;
  /** Error answers by status ("timeout", "ECONNRESET", "503", ...). */
  errorKinds: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  routes: Record<string, RouteFigures>;
}

/** A request unanswered after this long counts as a timeout (an error). */
const TIMEOUT_MS = 10_000;

const figures = (latencies: number[], errors: number, route?: string): RouteFigures => ({
  ...(route === undefined ? {} : { route }),
  requests: latencies.length,
  errors,
  p50Ms: percentile(latencies, 50),
  p99Ms: percentile(latencies, 99),
  maxMs: latencies.length > 0 ? Math.max(...latencies) : Number.NaN,
});

/**
 * Runs every user's polls against `targets` for `warmupSeconds` (discarded: each poll starts
 * at a random phase of its interval) and then `seconds` (measured); answers the figures.
 *
 * @example
 * const result = await runPollMix({ targets: [server.url], users, seconds: 30 });
 */
export const runPollMix = async ({
  targets,
  users,
  seconds,
  warmupSeconds = 5,
  flatOut = false,
  atMeasureStart,
}: {
  targets: readonly string[];
  users: readonly PollingUser[];
  seconds: number;
  warmupSeconds?: number;
  /** Each user sends its polls in turn, back to back, ignoring their rates. */
  flatOut?: boolean;
  /** Called as the measured window begins (after the warm-up); the run waits for it to end. */
  atMeasureStart?: () => Promise<unknown>;
}): Promise<MixResult> => {
  const agents = targets.map(() => new Agent({ keepAlive: true }));
  const startedAt = performance.now();
  const measureFrom = startedAt + warmupSeconds * 1000;
  const endAt = measureFrom + seconds * 1000;
  const latencies: number[] = [];
  const perSecond: number[][] = Array.from({ length: seconds }, () => []);
  const byRoute = new Map<string, { latencies: number[]; errors: number; route?: string }>();
  const measureStarted = new Promise((resolve) =>
    setTimeout(() => resolve(atMeasureStart?.()), measureFrom - performance.now()),
  );
  const errorKinds: Record<string, number> = {};
  let errors = 0;
  let skipped = 0;
  let warmupRequests = 0;
  const inFlight = new Set<Promise<void>>();

  const send = (target: number, user: PollingUser, poll: Poll): Promise<void> =>
    new Promise<void>((resolve) => {
      const began = performance.now();
      const url = new URL(poll.path, targets[target]);
      const payload = poll.body === undefined ? undefined : JSON.stringify(poll.body);
      const done = (error: string | null) => {
        const ended = performance.now();
        if (began < measureFrom) warmupRequests++;
        if (began >= measureFrom && began < endAt) {
          const route = byRoute.get(poll.name) ?? {
            latencies: [],
            errors: 0,
            ...(poll.route === undefined ? {} : { route: poll.route }),
          };
          byRoute.set(poll.name, route);
          if (error) {
            errors++;
            route.errors++;
            errorKinds[error] = (errorKinds[error] ?? 0) + 1;
          } else {
            latencies.push(ended - began);
            route.latencies.push(ended - began);
            perSecond[Math.floor((began - measureFrom) / 1000)]?.push(ended - began);
          }
        }
        resolve();
      };
      const req = request(
        url,
        {
          method: poll.method,
          agent: agents[target],
          headers: {
            "x-auth-key": user.key,
            ...(payload === undefined
              ? {}
              : {
                  "content-type": "application/json",
                  "content-length": Buffer.byteLength(payload),
                }),
          },
          timeout: TIMEOUT_MS,
        },
        (response) => {
          response.on("data", () => {});
          response.on("end", () => {
            const status = response.statusCode ?? 0;
            done(status >= 200 && status < 300 ? null : String(status));
          });
          response.on("error", (error: NodeJS.ErrnoException) => done(error.code ?? "error"));
        },
      );
      req.on("timeout", () =>
        req.destroy(Object.assign(new Error("timeout"), { code: "timeout" })),
      );
      req.on("error", (error: NodeJS.ErrnoException) => done(error.code ?? "error"));
      req.end(payload);
    });

  const timers: NodeJS.Timeout[] = [];
  if (flatOut)
    for (const [u, user] of users.entries()) {
      const target = u % targets.length;
      const loop = (async () => {
        for (let n = Math.floor(Math.random() * user.polls.length); ; n++) {
          if (performance.now() >= endAt) return;
          const poll = user.polls[n % user.polls.length];
          if (poll) await send(target, user, poll);
        }
      })();
      inFlight.add(loop);
    }
  for (const [u, user] of flatOut ? [] : users.entries()) {
    const target = u % targets.length;
    for (const poll of user.polls) {
      let busy = false;
      const fire = () => {
        if (performance.now() >= endAt) return;
        if (busy) {
          if (performance.now() >= measureFrom) skipped++;
          return;
        }
        busy = true;
        const sent = send(target, user, poll).finally(() => {
          busy = false;
          inFlight.delete(sent);
        });
        inFlight.add(sent);
      };
      const phase = Math.random() * poll.everyMs;
      timers.push(
        setTimeout(() => {
          fire();
          timers.push(setInterval(fire, poll.everyMs));
        }, phase),
      );
    }
  }
  await new Promise((resolve) => setTimeout(resolve, endAt - performance.now()));
  for (const timer of timers) clearTimeout(timer);
  await Promise.all(inFlight);
  await measureStarted;
  for (const agent of agents) agent.destroy();

  const offeredRps = flatOut
    ? Number.POSITIVE_INFINITY
    : users.reduce(
        (sum, user) => sum + user.polls.reduce((s, poll) => s + 1000 / poll.everyMs, 0),
        0,
      );
  const overall = figures(latencies, errors);
  return {
    requests: latencies.length + errors,
    warmupRequests,
    rps: (latencies.length + errors) / seconds,
    offeredRps,
    skipped,
    errors,
    errorKinds,
    timeline: perSecond.map((values, second) => ({
      second,
      requests: values.length,
      p99Ms: percentile(values, 99),
      maxMs: values.length > 0 ? Math.max(...values) : Number.NaN,
    })),
    p50Ms: overall.p50Ms,
    p99Ms: overall.p99Ms,
    maxMs: overall.maxMs,
    routes: Object.fromEntries(
      [...byRoute].map(([name, route]) => [
        name,
        figures(route.latencies, route.errors, route.route),
      ]),
    ),
  };
};
