import { ROUTES } from "@bundler/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./test/app.ts";

const key = (route: { method: string; url?: string; path?: string; access: string }) =>
  `${route.method} ${route.url ?? route.path} (${route.access})`;

describe("the route table (packages/shared ROUTES)", () => {
  let app: TestApp;
  beforeAll(async () => {
    // With the local profile's faucet, so that every route the server can have is registered.
    app = await createTestApp({ faucet: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("lists every /api/ route the server registers, with its method and access", () => {
    const table = new Set(ROUTES.map(key));
    expect(app.apiRoutes.map(key).filter((route) => !table.has(route))).toEqual([]);
  });

  it("lists no route the server does not register", () => {
    const registered = new Set(app.apiRoutes.map(key));
    expect(ROUTES.map(key).filter((route) => !registered.has(route))).toEqual([]);
  });

  it("lists each route once", () => {
    const keys = ROUTES.map((route) => `${route.method} ${route.path}`);
    expect(keys.length).toBe(new Set(keys).size);
  });

  it("describes the parameters of every path with :name segments", () => {
    const missing = ROUTES.filter((route) => route.path.includes("/:") && !route.params).map(key);
    expect(missing).toEqual([]);
  });
});
