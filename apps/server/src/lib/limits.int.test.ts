import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app.ts";

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe("request limits", () => {
  it("answers 413 in the spec's shape when the body is too large", async () => {
    app = await createTestApp({ bodyLimitBytes: 2048 });
    const response = await app.server.inject({
      method: "POST",
      url: "/api/auth/key/validate",
      payload: { key: "x".repeat(4096) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ success: false, error: "Payload Too Large" });
  });

  it("answers 429 once an address passes the per-minute limit", async () => {
    app = await createTestApp({ rateLimitPerMinute: 5 });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await app.server.inject({ method: "GET", url: "/api/news" });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const limited = await app.server.inject({ method: "GET", url: "/api/news" });
    expect(limited.json()).toEqual({
      success: false,
      error: "Rate Limit Reached - Too many requests at once",
    });
  });

  it("counts requests with a refused key towards the per-minute limit", async () => {
    app = await createTestApp({ rateLimitPerMinute: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await app.server.inject({
        method: "GET",
        url: "/api/draft/list",
        headers: { "x-auth-key": "lbk_guess" },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it("limits free keys per address more tightly than other calls", async () => {
    app = await createTestApp({ freeKeyLimitPerHour: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await app.server.inject({
        method: "POST",
        url: "/api/auth/key/generate-free",
        payload: { deviceId: `device-limit-${i}`, userAgent: "vitest" },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it("sends a content security policy that allows no inline script", async () => {
    app = await createTestApp();
    const response = await app.server.inject({ method: "GET", url: "/api/news" });
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it("lets the page connect only to its own origin, its socket included", async () => {
    app = await createTestApp();
    const response = await app.server.inject({ method: "GET", url: "/api/news" });
    const directives = String(response.headers["content-security-policy"]).split(";");
    expect(directives).toContain("connect-src 'self'");
  });

  it("allows only listed origins across sites", async () => {
    app = await createTestApp({ allowedOrigins: ["https://app.example"] });
    const allowed = await app.server.inject({
      method: "GET",
      url: "/api/news",
      headers: { origin: "https://app.example" },
    });
    const refused = await app.server.inject({
      method: "GET",
      url: "/api/news",
      headers: { origin: "https://evil.example" },
    });
    expect(allowed.headers["access-control-allow-origin"]).toBe("https://app.example");
    expect(refused.headers["access-control-allow-origin"]).toBeUndefined();
  });
});
