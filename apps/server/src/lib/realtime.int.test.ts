import type { AddressInfo } from "node:net";
import { ERROR_CATALOGUE } from "@bundler/shared";
import type { Socket } from "socket.io-client";
import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../test/app.ts";
import {
  closeSockets,
  collect,
  lastSocket,
  listenOnFreePort,
  openAt,
  track,
  within,
} from "../test/socket-clients.ts";

let app: TestApp;
let url: string;

beforeAll(async () => {
  app = await createTestApp();
  url = await listenOnFreePort(app);
});
afterAll(async () => {
  closeSockets();
  await app.close();
});

const open = (key?: string) => openAt(url, key);

/** An admin (key `admin`) turns user `userId`'s key off, as the admin page does. */
const turnOff = async (admin: string, userId: string | undefined) => {
  const turnedOff = await app.server.inject({
    method: "PUT",
    url: `/api/admin/dashboard/users/${userId}/active`,
    headers: { "x-auth-key": admin },
    payload: { isActive: false },
  });
  expect(turnedOff.statusCode).toBe(200);
};

describe("realtime", () => {
  it("never delivers one user's events to another user", async () => {
    const keyA = await app.auth.mintKey("user");
    const keyB = await app.auth.mintKey("user");
    const userA = await app.auth.authenticate(keyA);
    const userB = await app.auth.authenticate(keyB);
    const [a1, a2, b, anonymous] = await Promise.all([open(keyA), open(keyA), open(keyB), open()]);
    const [eventsA1, eventsA2, eventsB, eventsAnon] = [a1, a2, b, anonymous].map(collect);

    await app.realtime.emitToUser(userA?.id ?? "", "launch_status", { message: "for A" });
    await app.realtime.emitToUser(userB?.id ?? "", "dispersal_status", { message: "for B" });
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(eventsA1).toEqual([[`launch_status_${keyA}`, { message: "for A" }]]);
    expect(eventsA2).toEqual([[`launch_status_${keyA}`, { message: "for A" }]]);
    expect(eventsB).toEqual([[`dispersal_status_${keyB}`, { message: "for B" }]]);
    expect(eventsAnon).toEqual([]);
  });

  it("logs each user event it emits at debug level by the user's id, never by the key", async () => {
    const key = await app.auth.mintKey("user");
    const user = await app.auth.authenticate(key);
    const logged: unknown[][] = [];
    const debug = vi
      .spyOn(app.server.log, "debug")
      .mockImplementation((...args: unknown[]) => void logged.push(args));
    try {
      await app.realtime.emitToUser(user?.id ?? "", "launch_status", { message: "Bundle sent" });
    } finally {
      debug.mockRestore();
    }
    expect(logged).toEqual([[{ userEvent: "launch_status", userId: user?.id }, "Bundle sent"]]);
    expect(JSON.stringify(logged)).not.toContain(key);
  });

  it("broadcasts the block number to every connection, with or without a key", async () => {
    const key = await app.auth.mintKey("user");
    const [withKey, withoutKey] = await Promise.all([open(key), open()]);
    const received = Promise.all(
      [withKey, withoutKey].map(
        (socket) => new Promise((resolve) => socket.once("block", resolve)),
      ),
    );
    app.realtime.broadcastBlock(1234);
    expect(await received).toEqual([1234, 1234]);
  });

  it("disconnects a user's connections within a second of an admin turning the key off, and delivers nothing more", async () => {
    const admin = await app.auth.mintKey("admin");
    const key = await app.auth.mintKey("user");
    const user = await app.auth.authenticate(key);
    const socket = await open(key);
    const events = collect(socket);
    const disconnected = new Promise<string>((resolve) => socket.once("disconnect", resolve));

    await turnOff(admin, user?.id);
    const at = performance.now();
    const reason = await Promise.race([
      disconnected,
      new Promise((resolve) => setTimeout(() => resolve("still connected after 1 s"), 1_000)),
    ]);
    expect(reason).toBe("io server disconnect");
    expect(performance.now() - at).toBeLessThan(1_000);

    await app.realtime.emitToUser(user?.id ?? "", "launch_status", { message: "after the key" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events).toEqual([]);
  });

  it("disconnects a connection whose key is turned off while its handshake is being checked", async () => {
    const admin = await app.auth.mintKey("admin");
    const key = await app.auth.mintKey("user");
    const user = await app.auth.authenticate(key);
    const authenticate = app.auth.authenticate.bind(app.auth);
    let checked = () => {};
    const checking = new Promise<void>((resolve) => {
      checked = resolve;
    });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The handshake's check reads the key while it is on, then waits until it is off.
    vi.spyOn(app.auth, "authenticate").mockImplementationOnce(async (k) => {
      const answer = await authenticate(k);
      checked();
      await held;
      return answer;
    });
    const opening = open(key);
    const disconnected = new Promise<string>((resolve) =>
      lastSocket()?.once("disconnect", resolve),
    );
    await checking;
    await turnOff(admin, user?.id);
    // The change is heard (the key cache forgot the key) before the connection is listed.
    await within(2_000, async () => (await app.auth.authenticate(key)) === null);
    release();
    await opening;
    const reason = await Promise.race([
      disconnected,
      new Promise((resolve) => setTimeout(() => resolve("still connected after 1 s"), 1_000)),
    ]);
    expect(reason).toBe("io server disconnect");
  });

  it("keeps a user's connection when only the key's role changes", async () => {
    const key = await app.auth.mintKey("user");
    const user = await app.auth.authenticate(key);
    const socket = await open(key);
    const events = collect(socket);
    await app.auth.setRole(user?.id ?? "", "admin");
    await new Promise((resolve) => setTimeout(resolve, 500));
    await app.realtime.emitToUser(user?.id ?? "", "launch_status", { message: "still here" });
    await within(1_000, async () => events.length === 1);
    expect(socket.connected).toBe(true);
    expect(events).toEqual([[`launch_status_${key}`, { message: "still here" }]]);
  });

  it("refuses a handshake with an unknown key", async () => {
    await expect(open("lbk_not-a-key")).rejects.toThrow("Invalid access key");
  });

  it("takes the key only from the handshake's auth, not the query string", async () => {
    const key = await app.auth.mintKey("user");
    const user = await app.auth.authenticate(key);
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(url, { query: { key }, transports: ["websocket"], reconnection: false });
      track(s);
      s.once("connect", () => resolve(s));
      s.once("connect_error", reject);
    });
    const events = collect(socket);
    await app.realtime.emitToUser(user?.id ?? "", "launch_status", { message: "private" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events).toEqual([]);
  });
});

describe("handshakes per address", () => {
  // Long enough for 60 handshakes on a loaded 2-core machine: the refusal must fall inside it.
  const WINDOW_MS = 15_000;
  let limited: TestApp;
  let limitedUrl: string;
  beforeAll(async () => {
    limited = await createTestApp({ socketHandshakes: { max: 60, windowMs: WINDOW_MS } });
    await limited.server.listen({ host: "127.0.0.1", port: 0 });
    limitedUrl = `http://127.0.0.1:${(limited.server.server.address() as AddressInfo).port}`;
  });
  afterAll(() => limited.close());

  /** Connects and disconnects at once: answers whether the handshake was accepted, or why not. */
  const handshake = () =>
    new Promise<true | string>((resolve) => {
      const socket = connect(limitedUrl, { transports: ["websocket"], reconnection: false });
      socket.once("connect", () => {
        socket.disconnect();
        resolve(true);
      });
      socket.once("connect_error", (error) => {
        socket.disconnect();
        resolve(error.message);
      });
    });

  it("refuses the 61st handshake from one address within the window, readably, and takes one after it", async () => {
    const started = Date.now();
    const answeredAt: number[] = [];
    const first = await Promise.all(
      Array.from({ length: 60 }, async () => {
        const answer = await handshake();
        answeredAt.push(Date.now());
        return answer;
      }),
    );
    expect(first.every((accepted) => accepted === true)).toBe(true);
    expect(await handshake()).toBe(ERROR_CATALOGUE.rateLimit.title);
    // Make sure the burst fit in the window, or the refusal above proved nothing.
    expect(Date.now() - started).toBeLessThan(WINDOW_MS);
    // The window opened when the server took the first handshake: after `started` on a loaded
    // machine, but before any handshake was answered. Wait out the window from that answer.
    const answeredFirst = Math.min(...answeredAt);
    await new Promise((resolve) =>
      setTimeout(resolve, answeredFirst + WINDOW_MS + 100 - Date.now()),
    );
    expect(await handshake()).toBe(true);
  });
});

describe("handshakes behind a trusted proxy", () => {
  let proxied: TestApp;
  let proxiedUrl: string;
  beforeAll(async () => {
    proxied = await createTestApp({
      socketHandshakes: { max: 2, windowMs: 60_000 },
      trustProxy: ["127.0.0.1"],
    });
    proxiedUrl = await listenOnFreePort(proxied);
  });
  afterAll(() => proxied.close());

  /** A handshake the proxy forwards for `client`: true when accepted, else the refusal. */
  const forwardedHandshake = (client: string) =>
    new Promise<true | string>((resolve) => {
      const socket = connect(proxiedUrl, {
        transports: ["websocket"],
        reconnection: false,
        extraHeaders: { "x-forwarded-for": client },
      });
      socket.once("connect", () => {
        socket.disconnect();
        resolve(true);
      });
      socket.once("connect_error", (error) => {
        socket.disconnect();
        resolve(error.message);
      });
    });

  it("counts handshakes per forwarded client address, not per proxy", async () => {
    expect(await forwardedHandshake("203.0.113.1")).toBe(true);
    expect(await forwardedHandshake("203.0.113.1")).toBe(true);
    expect(await forwardedHandshake("203.0.113.1")).toBe(ERROR_CATALOGUE.rateLimit.title);
    expect(await forwardedHandshake("203.0.113.2")).toBe(true);
  });
});
