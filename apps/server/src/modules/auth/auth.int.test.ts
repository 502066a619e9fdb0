import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app.ts";
import { rowCounts } from "../../test/row-counts.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ freeKeyLimitPerHour: 1000 });
});
afterAll(() => app.close());

const generate = (deviceId: string) =>
  app.server.inject({
    method: "POST",
    url: "/api/auth/key/generate-free",
    payload: { deviceId, userAgent: "vitest" },
  });
const validate = (key: unknown) =>
  app.server.inject({ method: "POST", url: "/api/auth/key/validate", payload: { key } });

describe("POST /api/auth/key/generate-free", () => {
  it("returns a new key for a new device", async () => {
    const response = await generate("device-aaaaaaaa");
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, key: expect.stringMatching(/^lbk_/) });
  });

  it("stores only the digest and the first six characters", async () => {
    const { key } = (await generate("device-digest01")).json();
    const rows = await app.database.db.query.users.findMany();
    const serialized = JSON.stringify(rows);
    expect(serialized).not.toContain(key);
    expect(rows.some((row) => row.keyPrefix === key.slice(0, 6))).toBe(true);
  });

  it("refuses a second key for the same device with 409 and a clear message", async () => {
    await generate("device-twice001");
    const response = await generate("device-twice001");
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      success: false,
      error: "This device already has an access key. Import the key you already have.",
    });
  });

  it("refuses two simultaneous requests for one device but once", async () => {
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => generate("device-race0001")),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
  });

  it("answers 400 without a device id and writes nothing", async () => {
    const before = (await app.database.db.query.users.findMany()).length;
    const response = await app.server.inject({
      method: "POST",
      url: "/api/auth/key/generate-free",
      payload: { userAgent: "x" },
    });
    expect(response.statusCode).toBe(400);
    // A sentence naming the field by its label, and where it is (see docs/api.md).
    expect(response.json()).toEqual({
      success: false,
      error: "Device id is required",
      field: "deviceId",
    });
    expect((await app.database.db.query.users.findMany()).length).toBe(before);
  });
});

describe("free keys per network", () => {
  it("refuses a free key past the day's limit for one address with 429 and stores nothing", async () => {
    const limited = await createTestApp({ freeKeysPerIpPerDay: 3 });
    try {
      const from = (remoteAddress: string, deviceId: string) =>
        limited.server.inject({
          method: "POST",
          url: "/api/auth/key/generate-free",
          payload: { deviceId, userAgent: "vitest" },
          remoteAddress,
        });
      for (let i = 0; i < 3; i++)
        expect((await from("203.0.113.7", `device-ip-${i}-aaaa`)).statusCode).toBe(200);
      const before = await rowCounts(limited.database.db);
      const refused = await from("203.0.113.7", "device-ip-3-aaaa");
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        success: false,
        error:
          "This address already received 3 free access keys in the last 24 hours, the most allowed: try again later, or import the key you already have",
      });
      expect(await rowCounts(limited.database.db)).toEqual(before);
      // Another address has its own allowance.
      expect((await from("198.51.100.9", "device-ip-4-aaaa")).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it("counts only the last 24 hours", async () => {
    const limited = await createTestApp({ freeKeysPerIpPerDay: 1 });
    try {
      const from = (deviceId: string) =>
        limited.server.inject({
          method: "POST",
          url: "/api/auth/key/generate-free",
          payload: { deviceId, userAgent: "vitest" },
          remoteAddress: "203.0.113.8",
        });
      expect((await from("device-day-0-aaaa")).statusCode).toBe(200);
      expect((await from("device-day-1-aaaa")).statusCode).toBe(429);
      await limited.database.db.execute(
        sql`update users set created_at = now() - interval '25 hours'`,
      );
      expect((await from("device-day-1-aaaa")).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("POST /api/auth/key/validate", () => {
  it("accepts a generated key and reports its role", async () => {
    const { key } = (await generate("device-valid001")).json();
    const response = await validate(key);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, role: "user" });
  });

  it("reports the role of a minted admin key", async () => {
    const key = await app.auth.mintKey("superadmin");
    expect((await validate(key)).json()).toEqual({ success: true, role: "superadmin" });
  });

  it("answers 401 for an unknown key", async () => {
    const response = await validate("lbk_not-a-real-key");
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, error: "Invalid access key" });
  });

  it("answers 401 for a deactivated key", async () => {
    const { key } = (await generate("device-revoked1")).json();
    const user = await app.auth.authenticate(key);
    await app.auth.setActive(user?.id ?? "", false);
    expect((await validate(key)).statusCode).toBe(401);
  });

  it("answers 400 for an empty key", async () => {
    const response = await validate("");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false });
  });
});
