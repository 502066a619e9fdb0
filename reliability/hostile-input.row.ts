import { ROUTES, type RouteDef } from "@bundler/shared";
import fc from "fast-check";
import { rowCounts } from "../apps/server/src/test/row-counts.ts";
import { databasesOf, type RequestParts, send, startApi } from "./api/api.ts";
import { hostileOf } from "./api/arbitrary.ts";
import { type Figure, type Row, zero } from "./row.ts";

/** Cases per route: the issue's 1,000 in full, a sample in the reduced run. */
const CASES = { full: 1_000, reduced: 25 } as const;

/** The reduced run's seed; a full run prints its own (rerun with HOSTILE_INPUT_SEED). */
const REDUCED_SEED = 16_016;

/** Malformed bodies that are not JSON of anything. */
const rawBody = fc.oneof(
  fc.constantFrom(
    { text: "{", contentType: "application/json" },
    { text: '{"a":1,"a":', contentType: "application/json" },
    { text: '{"__proto__":{"role":"superadmin"}}', contentType: "application/json" },
    { text: '{"constructor":{"prototype":{"x":1}}}', contentType: "application/json" },
    { text: "null", contentType: "application/json" },
    { text: "a=1&b=2", contentType: "application/x-www-form-urlencoded" },
    { text: "<xml/>", contentType: "text/xml" },
    { text: "hello", contentType: "text/plain" },
  ),
  fc.string({ unit: "binary", maxLength: 200 }).map((text) => ({
    text,
    contentType: "application/json",
  })),
);

/** One hostile request for a route: each part generated from its schema, then broken. */
export const hostileRequest = (route: RouteDef): fc.Arbitrary<RequestParts> =>
  fc.record({
    params: route.params ? hostileOf(route.params) : fc.constant(undefined),
    query: hostileOf(route.query),
    body: route.method === "GET" ? fc.constant(undefined) : hostileOf(route.body),
    raw:
      route.method === "GET"
        ? fc.constant(undefined)
        : fc.option(rawBody, { nil: undefined, freq: 6 }),
  });

export interface HostileOutcome {
  cases: number;
  /** How many answers each status had: the cases reach past validation too. */
  statuses: Record<number, number>;
  serverErrors: string[];
  crashes: string[];
  writesOn4xx: string[];
}

const describe = (route: RouteDef, parts: RequestParts, detail: string) =>
  `${route.method} ${route.path} ${detail}: ${JSON.stringify(parts).slice(0, 300)}`;

/** Sends `cases` hostile requests to every route of the table and counts what went wrong. */
export const hostileInput = async (
  postgresUrl: string | null,
  cases: number,
  seed: number,
  log: (line: string) => void,
): Promise<HostileOutcome> => {
  const outcome: HostileOutcome = {
    cases: 0,
    statuses: {},
    serverErrors: [],
    crashes: [],
    writesOn4xx: [],
  };
  const uncaught: string[] = [];
  const onUncaught = (error: unknown) => uncaught.push(String(error));
  process.on("uncaughtException", onUncaught);
  process.on("unhandledRejection", onUncaught);
  const api = await startApi(postgresUrl);
  try {
    for (const [index, route] of ROUTES.entries()) {
      const key = route.access === "public" ? undefined : api.keys[route.access];
      const samples = fc.sample(hostileRequest(route), { numRuns: cases, seed: seed + index });
      for (const parts of samples) {
        const before = await rowCounts(api.database.db);
        const response = await send(api.app, route, parts, key);
        outcome.cases++;
        outcome.statuses[response.statusCode] = (outcome.statuses[response.statusCode] ?? 0) + 1;
        if (response.statusCode >= 500)
          outcome.serverErrors.push(
            describe(route, parts, `${response.statusCode} ${response.body.slice(0, 120)}`),
          );
        if (response.statusCode >= 400 && response.statusCode < 500) {
          const after = await rowCounts(api.database.db);
          const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
          if (changed.length)
            outcome.writesOn4xx.push(
              describe(route, parts, `${response.statusCode} wrote ${changed.join(", ")}`),
            );
        }
      }
      const health = await api.app.server.inject({ method: "GET", url: "/api/health" });
      if (health.statusCode !== 200 || uncaught.length)
        outcome.crashes.push(
          `${route.method} ${route.path}: health ${health.statusCode}${uncaught.length ? `, ${uncaught.splice(0).join("; ")}` : ""}`,
        );
    }
  } finally {
    process.off("uncaughtException", onUncaught);
    process.off("unhandledRejection", onUncaught);
    await api.close();
  }
  log(`hostile input: answers by status ${JSON.stringify(outcome.statuses)}`);
  for (const line of [...outcome.serverErrors, ...outcome.crashes, ...outcome.writesOn4xx].slice(
    0,
    20,
  ))
    log(`hostile input: ${line}`);
  return outcome;
};

export const hostileInputRow: Row = {
  name: "hostile input",
  what: "every route of packages/shared's ROUTES, fast-check cases generated from its zod schemas and broken (wrong types, huge strings and arrays, 1e30 and negative amounts, bad addresses, unicode, prototype keys, missing fields)",
  run: async ({ mode, databaseUrl, log }) => {
    const seed =
      mode === "reduced"
        ? REDUCED_SEED
        : Number(process.env.HOSTILE_INPUT_SEED) || Math.floor(Math.random() * 2 ** 31);
    log(`hostile input: seed ${seed}, ${CASES[mode]} cases per route, ${ROUTES.length} routes`);
    const figures: Figure[] = [];
    for (const { name, postgresUrl } of databasesOf(databaseUrl)) {
      const outcome = await hostileInput(postgresUrl, CASES[mode], seed, log);
      figures.push(
        {
          figure: `${name}: cases (seed ${seed})`,
          measured: String(outcome.cases),
          goal: `${CASES[mode]} × ${ROUTES.length} routes`,
          met: outcome.cases === CASES[mode] * ROUTES.length,
        },
        zero(`${name}: answers ≥ 500`, outcome.serverErrors.length),
        zero(`${name}: crashes`, outcome.crashes.length),
        zero(`${name}: writes on a 4xx`, outcome.writesOn4xx.length),
      );
    }
    return figures;
  },
};
