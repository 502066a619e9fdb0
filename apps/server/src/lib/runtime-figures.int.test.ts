import type { RuntimeResponse } from "@bundler/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app.ts";

let app: TestApp;
let admin: string;
let user: string;
const RUNTIME = "/api/admin/dashboard/runtime";

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.auth.mintKey("admin");
  user = await app.auth.mintKey("user");
});
afterAll(async () => {
  await app?.close();
});

const call = async (method: "GET" | "POST", url: string, key?: string) => {
  const response = await app.server.inject({
    method,
    url,
    headers: key ? { "x-auth-key": key } : {},
  });
  return { status: response.statusCode, body: response.json() as RuntimeResponse };
};

describe("GET /api/admin/dashboard/runtime", () => {
  it.each([
    ["GET", RUNTIME],
    ["POST", `${RUNTIME}/reset`],
  ] as const)("%s %s answers 401 without a key and 403 with a user's key", async (method, url) => {
    expect((await call(method, url)).status).toBe(401);
    expect((await call(method, url, user)).status).toBe(403);
  });

  it("answers each route by its pattern with count and percentiles, and a reset empties them", async () => {
    await call("POST", `${RUNTIME}/reset`, admin);
    for (let n = 0; n < 5; n++) await call("GET", "/api/draft/list?page=1", user);
    await call("GET", "/api/health");
    const { status, body } = await call("GET", RUNTIME, admin);
    expect(status).toBe(200);
    const list = body.routes.find((route) => route.route === "GET /api/draft/list");
    expect(list?.count).toBe(5);
    expect(list?.p50Ms).toBeGreaterThan(0);
    expect(list?.p99Ms).toBeGreaterThanOrEqual(list?.p50Ms ?? Number.NaN);
    expect(list?.maxMs).toBeGreaterThanOrEqual(list?.p99Ms ?? Number.NaN);
    expect(body.routes.find((route) => route.route === "GET /api/health")?.count).toBe(1);
    expect(body.eventLoopDelayMs.max).toBeGreaterThanOrEqual(body.eventLoopDelayMs.p99);

    const reset = await call("POST", `${RUNTIME}/reset`, admin);
    expect(reset.status).toBe(200);
    expect(reset.body.since).toBe(body.since);
    expect(reset.body.routes.find((route) => route.route === "GET /api/draft/list")?.count).toBe(5);
    const fresh = await call("GET", RUNTIME, admin);
    expect(fresh.body.since > body.since).toBe(true);
    // The reset's own answer is the only one timed in the new window.
    expect(fresh.body.routes.map((route) => route.route)).toEqual([`POST ${RUNTIME}/reset`]);
  });
});
