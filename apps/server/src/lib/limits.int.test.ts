import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app.ts";
import { OVERSIZED_DRAIN_BYTES } from "./oversized-body.ts";
import { RATE_COUNT_UNAVAILABLE } from "./rate-limits.ts";

let app: TestApp | undefined;

/**
 * Sends a POST of `size` bytes in 64 KiB writes a few milliseconds apart (an upload over a real
 * network: the answer comes long before the body is sent), all of it before reading (a
 * half-open socket: the server's end of its writing does not stop ours), then reads what came
 * back: the answer's head and body, or the error that ended the connection, and how much was
 * written.
 */
const sendWholeThenRead = (port: number, size: number) =>
  new Promise<{ head: string; body: string; error?: string; written: number }>((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    let received = "";
    let written = 0;
    let error: string | undefined;
    socket.pause();
    socket.on("error", (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on("close", () => {
      const [head = "", body = ""] = received.split("\r\n\r\n");
      resolve({ head, body, written, ...(error ? { error } : {}) });
    });
    socket.on("data", (chunk) => {
      received += chunk;
    });
    const chunk = Buffer.alloc(64 * 1024, 120);
    const send = async () => {
      socket.write(
        `POST /api/auth/key/validate HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`,
      );
      while (written < size && !socket.destroyed) {
        const ok = socket.write(chunk.subarray(0, Math.min(chunk.length, size - written)));
        written += Math.min(chunk.length, size - written);
        if (!ok) await new Promise((r) => socket.once("drain", r).once("close", r));
        await new Promise((r) => setTimeout(r, 2));
      }
      socket.resume();
      if (!socket.destroyed) socket.end();
    };
    void send();
  });
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

  it("answers 413 with its sentence to Node's fetch sending an oversized body", async () => {
    app = await createTestApp({ bodyLimitBytes: 2048 });
    const address = await app.server.listen({ port: 0, host: "127.0.0.1" });
    // Large enough that the client is still sending when the answer comes.
    const response = await fetch(`${address}/api/auth/key/validate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: "x".repeat(4 * 1024 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ success: false, error: "Payload Too Large" });
  });

  it("answers 413 with its sentence to a client that sends its whole oversized body before it reads", async () => {
    app = await createTestApp({ bodyLimitBytes: 2048 });
    const address = new URL(await app.server.listen({ port: 0, host: "127.0.0.1" }));
    // A browser's upload, or an HTTP library that reads once the request is sent: it keeps
    // writing after the answer came, and reads it afterwards.
    const answer = await sendWholeThenRead(Number(address.port), 2 * 1024 * 1024);
    expect(answer.error).toBeUndefined();
    expect(answer.head).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(answer.body)).toEqual({ success: false, error: "Payload Too Large" });
  });

  it("stops reading an oversized body past what it drains, closing the connection", async () => {
    app = await createTestApp({ bodyLimitBytes: 2048 });
    const address = new URL(await app.server.listen({ port: 0, host: "127.0.0.1" }));
    const answer = await sendWholeThenRead(Number(address.port), OVERSIZED_DRAIN_BYTES * 4);
    expect(answer.error).toMatch(/EPIPE|ECONNRESET/);
    expect(answer.written).toBeLessThan(OVERSIZED_DRAIN_BYTES * 4);
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

  it("says when to retry on a refusal and adds no rate-limit headers to allowed answers", async () => {
    app = await createTestApp({ rateLimitPerMinute: 1 });
    const allowed = await app.server.inject({ method: "GET", url: "/api/news" });
    const refused = await app.server.inject({ method: "GET", url: "/api/news" });
    expect([allowed.statusCode, refused.statusCode]).toEqual([200, 429]);
    expect(Object.keys(allowed.headers).filter((name) => name.includes("ratelimit"))).toEqual([]);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.headers["x-ratelimit-limit"]).toBe("1");
  });

  it("does not count the web app's files and paths towards the per-minute limit", async () => {
    const webDist = mkdtempSync(path.join(tmpdir(), "bundler-web-"));
    writeFileSync(path.join(webDist, "index.html"), "<!doctype html><title>app</title>");
    writeFileSync(path.join(webDist, "app.js"), "console.log(1)");
    try {
      app = await createTestApp({ rateLimitPerMinute: 2, webDist });
      const statuses: number[] = [];
      for (const url of ["/app.js", "/app.js", "/app.js", "/disperser", "/", "/api/news"])
        statuses.push((await app.server.inject({ method: "GET", url })).statusCode);
      statuses.push((await app.server.inject({ method: "GET", url: "/api/news" })).statusCode);
      statuses.push((await app.server.inject({ method: "GET", url: "/api/news" })).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 429]);
    } finally {
      rmSync(webDist, { recursive: true, force: true });
    }
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

  /** One GET per request, each naming a forwarded client (from 127.0.0.1 unless said): the statuses. */
  const statusesOf = async (
    requests: Array<{ forwarded: string; remoteAddress?: string }>,
  ): Promise<number[]> => {
    const statuses: number[] = [];
    for (const { forwarded, remoteAddress } of requests) {
      const response = await app?.server.inject({
        method: "GET",
        url: "/api/news",
        headers: { "x-forwarded-for": forwarded },
        ...(remoteAddress ? { remoteAddress } : {}),
      });
      statuses.push(response?.statusCode ?? 0);
    }
    return statuses;
  };

  it("limits each client behind a trusted proxy by the address the proxy forwards", async () => {
    app = await createTestApp({ rateLimitPerMinute: 2, trustProxy: ["127.0.0.1"] });
    const first = { forwarded: "203.0.113.1" };
    const second = { forwarded: "203.0.113.2" };
    expect(await statusesOf([first, first, first])).toEqual([200, 200, 429]);
    expect(await statusesOf([second, second, second])).toEqual([200, 200, 429]);
  });

  it("ignores X-Forwarded-For from an address that is not a trusted proxy", async () => {
    app = await createTestApp({ rateLimitPerMinute: 2, trustProxy: ["127.0.0.1"] });
    const stranger = "198.51.100.7";
    expect(
      await statusesOf([
        { forwarded: "203.0.113.1", remoteAddress: stranger },
        { forwarded: "203.0.113.2", remoteAddress: stranger },
        { forwarded: "203.0.113.3", remoteAddress: stranger },
      ]),
    ).toEqual([200, 200, 429]);
  });

  it("without TRUST_PROXY, counts every forwarded client as the proxy itself", async () => {
    app = await createTestApp({ rateLimitPerMinute: 2 });
    expect(
      await statusesOf([
        { forwarded: "203.0.113.1" },
        { forwarded: "203.0.113.2" },
        { forwarded: "203.0.113.3" },
      ]),
    ).toEqual([200, 200, 429]);
  });

  it("gives free keys per forwarded address behind a trusted proxy", async () => {
    app = await createTestApp({ freeKeysPerIpPerDay: 1, trustProxy: ["127.0.0.1"] });
    const freeKey = async (forwarded: string, device: string) =>
      (
        await app?.server.inject({
          method: "POST",
          url: "/api/auth/key/generate-free",
          headers: { "x-forwarded-for": forwarded },
          payload: { deviceId: device, userAgent: "vitest" },
        })
      )?.statusCode;
    expect(await freeKey("203.0.113.1", "device-proxy-1")).toBe(200);
    expect(await freeKey("203.0.113.1", "device-proxy-2")).toBe(429);
    expect(await freeKey("203.0.113.2", "device-proxy-3")).toBe(200);
  });

  it("sends a content security policy that allows no inline script", async () => {
    app = await createTestApp();
    const response = await app.server.inject({ method: "GET", url: "/api/news" });
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it("sends the security headers on refusals, errors and not-found answers too", async () => {
    app = await createTestApp({ bodyLimitBytes: 2048, rateLimitPerMinute: 6 });
    const server = app.server;
    const answers = [
      await server.inject({ method: "GET", url: "/api/no-such-route" }),
      await server.inject({ method: "GET", url: "/no-such-page" }),
      await server.inject({ method: "GET", url: "/api/draft/list" }),
      await server.inject({ method: "POST", url: "/api/auth/key/validate", payload: {} }),
      await server.inject({
        method: "POST",
        url: "/api/auth/key/validate",
        payload: { key: "x".repeat(4096) },
      }),
    ];
    let limited = await server.inject({ method: "GET", url: "/api/news" });
    while (limited.statusCode !== 429)
      limited = await server.inject({ method: "GET", url: "/api/news" });
    answers.push(limited);
    expect(answers.map((answer) => answer.statusCode)).toEqual([404, 404, 401, 400, 413, 429]);
    for (const answer of answers) {
      expect(String(answer.headers["content-security-policy"])).toContain("script-src 'self'");
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      expect(answer.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(answer.headers["strict-transport-security"]).toBeDefined();
    }
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

// Two server processes on one Postgres database (the embedded one has only ever one process).
describe.skipIf(!process.env.DATABASE_URL)("limits across server processes on Postgres", () => {
  let second: TestApp | undefined;
  afterEach(async () => {
    await second?.close();
    second = undefined;
  });

  it("allows one address the per-minute limit once across two processes, not once in each", async () => {
    app = await createTestApp({ rateLimitPerMinute: 4 });
    second = await createTestApp({ rateLimitPerMinute: 4, database: app.database });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const server = i % 2 === 0 ? app.server : second.server;
      statuses.push((await server.inject({ method: "GET", url: "/api/news" })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it("allows one address a route's own limit once across two processes", async () => {
    app = await createTestApp({ freeKeyLimitPerHour: 2 });
    second = await createTestApp({ freeKeyLimitPerHour: 2, database: app.database });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const server = i % 2 === 0 ? app.server : second.server;
      const response = await server.inject({
        method: "POST",
        url: "/api/auth/key/generate-free",
        payload: { deviceId: `device-shared-limit-${i}`, userAgent: "vitest" },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  /** This app's database without its rate-limit counts (a count now fails, as when it is away). */
  const losingCounts = async (test: TestApp) =>
    test.database.db.execute(sql`alter table rate_limits rename to rate_limits_away`);

  it("refuses a route that moves money with a 503 and a sentence when the count cannot be taken", async () => {
    app = await createTestApp();
    const key = await app.auth.mintKey("user");
    await losingCounts(app);
    const response = await app.server.inject({
      method: "POST",
      url: "/api/bundle/wallets/sell",
      headers: { "x-auth-key": key },
      payload: {
        address: "0x1111111111111111111111111111111111111111",
        wallets: ["0x2222222222222222222222222222222222222222"],
        amount: "50",
        isPercentage: true,
      },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ success: false, error: RATE_COUNT_UNAVAILABLE });
  });

  it("counts a call that moves money with its address's other calls, under one limit", async () => {
    app = await createTestApp({ rateLimitPerMinute: 2 });
    const key = await app.auth.mintKey("user");
    const statuses: number[] = [];
    statuses.push((await app.server.inject({ method: "GET", url: "/api/news" })).statusCode);
    const empty = await app.server.inject({
      method: "POST",
      url: "/api/bundle/wallets/empty",
      headers: { "x-auth-key": key },
      payload: { address: "0x1111111111111111111111111111111111111111", wallets: [] },
    });
    statuses.push(empty.statusCode === 429 ? 429 : 0);
    statuses.push((await app.server.inject({ method: "GET", url: "/api/news" })).statusCode);
    expect(statuses).toEqual([200, 0, 429]);
  });

  it("lets a read through when the count cannot be taken", async () => {
    app = await createTestApp();
    await losingCounts(app);
    const response = await app.server.inject({ method: "GET", url: "/api/news" });
    expect(response.statusCode).toBe(200);
  });

  it("counts concurrent requests exactly: a burst of 20 at a limit of 10 lets 10 through", async () => {
    app = await createTestApp({ rateLimitPerMinute: 10 });
    second = await createTestApp({ rateLimitPerMinute: 10, database: app.database });
    const servers = [app.server, second.server];
    const statuses = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const server = servers[i % 2];
        return (await server?.inject({ method: "GET", url: "/api/news" }))?.statusCode;
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });
});
