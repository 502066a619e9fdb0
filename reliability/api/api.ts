import { randomBytes } from "node:crypto";
import type { RouteDef } from "@bundler/shared";
import type { Database } from "../../apps/server/src/db/client.ts";
import { createTestApp, type TestApp } from "../../apps/server/src/test/app.ts";
import { startTestChain, type TestChain } from "../../apps/server/src/test/chain.ts";
import { createTestDatabase } from "../../apps/server/src/test/database.ts";

/** The whole app as the local profile runs it: a real chain (anvil), the faucet, a database. */
export interface ApiUnderTest {
  app: TestApp;
  testChain: TestChain;
  database: Database;
  /** A key per role, for the routes' access. */
  keys: { user: string; admin: string; superadmin: string };
  close(): Promise<void>;
}

/** The databases a row measures on: PGlite always, Postgres when the run has one. */
export const databasesOf = (databaseUrl: string | undefined) => [
  { name: "PGlite", postgresUrl: null },
  ...(databaseUrl ? [{ name: "Postgres", postgresUrl: databaseUrl }] : []),
];

export const startApi = async (postgresUrl: string | null): Promise<ApiUnderTest> => {
  const masterKey = randomBytes(32);
  const testChain = await startTestChain(masterKey);
  const database = await createTestDatabase(postgresUrl);
  try {
    const app = await createTestApp({
      database,
      chain: testChain.chain,
      masterKey,
      faucet: true,
      keyPaymentLimitPerHour: 1_000_000,
      // RELIABILITY_LOG_LEVEL=error shows why a request answered 500.
      logLevel: process.env.RELIABILITY_LOG_LEVEL ?? "silent",
    });
    const keys = {
      user: await app.auth.mintKey("user"),
      admin: await app.auth.mintKey("admin"),
      superadmin: await app.auth.mintKey("superadmin"),
    };
    return {
      app,
      testChain,
      database,
      keys,
      close: async () => {
        await app.close();
        await database.close();
        await testChain.stop();
      },
    };
  } catch (error) {
    await database.close();
    await testChain.stop();
    throw error;
  }
};

/** A request's parts, before they are put on the wire. */
export interface RequestParts {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  /** Send the body as this raw text (malformed JSON, another content type) instead. */
  raw?: { text: string; contentType: string } | undefined;
}

const text = (value: unknown): string =>
  typeof value === "string" ? value : value === undefined ? "" : (JSON.stringify(value) ?? "");

/** The route's path with its `:name` segments filled in from `params` (anything, encoded). */
export const pathOf = (route: RouteDef, params: unknown): string =>
  route.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value =
      params !== null && typeof params === "object"
        ? (params as Record<string, unknown>)[name]
        : params;
    // A lone surrogate cannot travel in a URL: it goes as U+FFFD, as a browser would send it.
    return encodeURIComponent(Buffer.from(text(value), "utf8").toString("utf8"));
  });

export const queryOf = (query: unknown): string => {
  if (query === undefined) return "";
  const search = new URLSearchParams();
  if (query !== null && typeof query === "object" && !Array.isArray(query)) {
    for (const [key, value] of Object.entries(query))
      for (const item of Array.isArray(value) ? value : [value]) search.append(key, text(item));
  } else search.append("q", text(query));
  const string = search.toString();
  return string ? `?${string}` : "";
};

let addressCounter = 0;
/** A client address of its own per call, so per-address rate limits do not hide what is behind them. */
const nextRemoteAddress = () => {
  addressCounter++;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

/** Sends one request through the whole Fastify pipeline (parsing, limits, hooks, handler). */
export const send = async (app: TestApp, route: RouteDef, parts: RequestParts, key?: string) => {
  const headers: Record<string, string> = key ? { "x-auth-key": key } : {};
  let payload: string | undefined;
  if (parts.raw) {
    payload = parts.raw.text;
    headers["content-type"] = parts.raw.contentType;
  } else if (parts.body !== undefined && route.method !== "GET") {
    payload = JSON.stringify(parts.body);
    if (payload !== undefined) headers["content-type"] = "application/json";
  }
  const response = await app.server.inject({
    method: route.method,
    url: pathOf(route, parts.params) + queryOf(parts.query),
    headers,
    remoteAddress: nextRemoteAddress(),
    ...(payload === undefined ? {} : { payload }),
  });
  return response;
};

/** The key a route's access asks for. */
export const keyFor = (api: ApiUnderTest, route: RouteDef): string | undefined =>
  route.access === "public" ? undefined : api.keys[route.access];
