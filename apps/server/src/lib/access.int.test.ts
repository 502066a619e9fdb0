import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "../test/app.ts";
import { requireUser } from "./access.ts";

let app: TestApp;
let userKey: string;
let adminKey: string;
let superKey: string;

beforeAll(async () => {
  app = await createTestApp();
  // Routes that exist only to exercise the access rules every real route goes through.
  app.server.get("/api/test/user", async (request) => ({
    success: true,
    id: requireUser(request).id,
  }));
  app.server.get("/api/test/admin", { config: { access: "admin" } }, async () => ({
    success: true,
  }));
  app.server.get("/api/test/super", { config: { access: "superadmin" } }, async () => ({
    success: true,
  }));
  const body = z.object({ amount: z.number().positive() });
  app.server.post("/api/test/user-body", { schema: { body } }, async () => ({ success: true }));
  app.server.post(
    "/api/test/admin-body",
    { schema: { body }, config: { access: "admin" } },
    async () => ({ success: true }),
  );
  userKey = await app.auth.mintKey("user");
  adminKey = await app.auth.mintKey("admin");
  superKey = await app.auth.mintKey("superadmin");
});
afterAll(() => app.close());

const get = (url: string, key?: string) =>
  app.server.inject({ method: "GET", url, headers: key ? { "x-auth-key": key } : {} });

const post = (url: string, payload: string, key?: string) =>
  app.server.inject({
    method: "POST",
    url,
    payload,
    headers: { "content-type": "application/json", ...(key ? { "x-auth-key": key } : {}) },
  });

describe("access control", () => {
  it("answers 401 when the key is missing", async () => {
    const response = await get("/api/test/user");
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, error: "No authentication key provided" });
  });

  it("answers 401 when the key is unknown", async () => {
    const response = await get("/api/test/user", "lbk_unknown");
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, error: "Invalid access key" });
  });

  it("lets any valid key through to a user route", async () => {
    const response = await get("/api/test/user", userKey);
    expect(response.statusCode).toBe(200);
    expect(response.json().success).toBe(true);
  });

  it("answers 403 to a user on an admin route", async () => {
    expect((await get("/api/test/admin", userKey)).statusCode).toBe(403);
  });

  it("lets admins and superadmins through to an admin route", async () => {
    expect((await get("/api/test/admin", adminKey)).statusCode).toBe(200);
    expect((await get("/api/test/admin", superKey)).statusCode).toBe(200);
  });

  it("answers 403 to an admin on a superadmin route", async () => {
    expect((await get("/api/test/super", adminKey)).statusCode).toBe(403);
    expect((await get("/api/test/super", superKey)).statusCode).toBe(200);
  });

  it("answers 404 in the spec's shape for an unknown API path", async () => {
    const response = await get("/api/nothing-here", userKey);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, error: "Not found" });
  });

  it("answers 404 to an unknown API path even without a key", async () => {
    expect((await get("/api/nothing-here")).statusCode).toBe(404);
  });
});

describe("access control before the body is read", () => {
  it("answers 401 to an invalid body without a key", async () => {
    const response = await post("/api/test/user-body", JSON.stringify({ amount: "lots" }));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, error: "No authentication key provided" });
  });

  it("answers 401 to an invalid body with an unknown key", async () => {
    const response = await post("/api/test/user-body", JSON.stringify({ amount: -1 }), "lbk_nope");
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, error: "Invalid access key" });
  });

  it("answers 401 to a body that is not even JSON without a key", async () => {
    expect((await post("/api/test/user-body", "{not json")).statusCode).toBe(401);
  });

  it("answers 403 to a user's invalid body on an admin route", async () => {
    const response = await post("/api/test/admin-body", JSON.stringify({}), userKey);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ success: false, error: "You do not have access to this" });
  });

  it("validates the body once the key is good", async () => {
    const response = await post("/api/test/admin-body", JSON.stringify({}), adminKey);
    expect(response.statusCode).toBe(400);
    expect((await post("/api/test/admin-body", '{"amount":1}', adminKey)).statusCode).toBe(200);
  });
});
