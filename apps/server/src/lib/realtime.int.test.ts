import type { AddressInfo } from "node:net";
import { ERROR_CATALOGUE } from "@bundler/shared";
import { sql } from "drizzle-orm";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../test/app.ts";

let app: TestApp;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  app = await createTestApp();
  url = await listenOnFreePort(app);
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await app.close();
});

const listenOnFreePort = async (testApp: TestApp) => {
  await testApp.server.listen({ host: "127.0.0.1", port: 0 });
  return `http://127.0.0.1:${(testApp.server.server.address() as AddressInfo).port}`;
};

const openAt = (at: string, key?: string) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect(at, {
      auth: key ? { key } : {},
      transports: ["websocket"],
      reconnection: false,
    });
    sockets.push(socket);
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });
const open = (key?: string) => openAt(url, key);

const collect = (socket: Socket) => {
  const events: Array<[string, unknown]> = [];
  socket.onAny((name: string, payload: unknown) => events.push([name, payload]));
  return events;
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

    const turnedOff = await app.server.inject({
      method: "PUT",
      url: `/api/admin/dashboard/users/${user?.id}/active`,
      headers: { "x-auth-key": admin },
      payload: { isActive: false },
    });
    expect(turnedOff.statusCode).toBe(200);
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
      sockets.at(-1)?.once("disconnect", resolve),
    );
    await checking;
    const turnedOff = await app.server.inject({
      method: "PUT",
      url: `/api/admin/dashboard/users/${user?.id}/active`,
      headers: { "x-auth-key": admin },
      payload: { isActive: false },
    });
    expect(turnedOff.statusCode).toBe(200);
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
      sockets.push(s);
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

/** Polls until `check` holds; fails past `withinMs`. */
const within = async (withinMs: number, check: () => Promise<boolean>): Promise<void> => {
  const began = performance.now();
  while (!(await check())) {
    if (performance.now() - began > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

// Two server processes on one Postgres database (the embedded one has only ever one process).
describe.skipIf(!process.env.DATABASE_URL)("realtime across server processes on Postgres", () => {
  let first: TestApp;
  let second: TestApp;
  let firstUrl: string;
  let secondUrl: string;
  beforeAll(async () => {
    first = await createTestApp();
    second = await createTestApp({ database: first.database });
    firstUrl = await listenOnFreePort(first);
    secondUrl = await listenOnFreePort(second);
    // Each process learns of the other from its heartbeats (every 5 s), once both listen.
    const knowsTheOther = (testApp: TestApp) => async () =>
      (await testApp.realtime.io.sockets.adapter.serverCount()) === 2;
    await within(15_000, knowsTheOther(first));
    await within(15_000, knowsTheOther(second));
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const mintUser = async () => {
    const key = await first.auth.mintKey("user");
    const user = await first.auth.authenticate(key);
    if (!user) throw new Error("a minted key did not authenticate");
    return { key, id: user.id };
  };

  it("delivers a user's events emitted in one process to that user's connections in the other, and to nobody else", async () => {
    const userA = await mintUser();
    const userB = await mintUser();
    const [aThere, aHere, bThere, anonymousThere] = await Promise.all([
      openAt(secondUrl, userA.key),
      openAt(firstUrl, userA.key),
      openAt(secondUrl, userB.key),
      openAt(secondUrl),
    ]);
    const eventsAThere = collect(aThere);
    const [eventsAHere, eventsBThere, eventsAnonymous] = [aHere, bThere, anonymousThere].map(
      collect,
    );

    await first.realtime.emitToUser(userA.id, "launch_status", { message: "launched" });
    await first.realtime.emitToUser(userA.id, "dispersal_status", { message: "dispersed" });
    await within(5_000, async () => eventsAThere.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 300));

    const expected = [
      [`launch_status_${userA.key}`, { message: "launched" }],
      [`dispersal_status_${userA.key}`, { message: "dispersed" }],
    ];
    expect(eventsAThere).toEqual(expected);
    expect(eventsAHere).toEqual(expected);
    expect(eventsBThere).toEqual([]);
    expect(eventsAnonymous).toEqual([]);
  });

  it("tells each connection the block only from its own process, which watches blocks itself", async () => {
    const [here, there] = await Promise.all([openAt(firstUrl), openAt(secondUrl)]);
    const blocksHere = collect(here);
    const blocksThere = collect(there);
    first.realtime.broadcastBlock(77);
    await within(5_000, async () => blocksHere.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(blocksHere).toEqual([["block", 77]]);
    expect(blocksThere).toEqual([]);
  });

  it("survives Postgres ending the adapter's listening connection, and delivers again once it is back", async () => {
    const user = await mintUser();
    const socket = await openAt(secondUrl, user.key);
    const events = collect(socket);
    const { rows } = await first.database.db.execute(sql`
      select pg_terminate_backend(pid) as done from pg_stat_activity
      where datname = current_database() and query like 'LISTEN "socket.io#%'`);
    expect(rows.length).toBe(2); // one listener per process

    let sent = 0;
    await within(15_000, async () => {
      sent += 1;
      await first.realtime.emitToUser(user.id, "launch_status", { message: `try ${sent}` });
      await new Promise((resolve) => setTimeout(resolve, 200));
      return events.length > 0;
    });
    expect(events[0]?.[0]).toBe(`launch_status_${user.key}`);
  });
});

describe.skipIf(!process.env.DATABASE_URL)(
  "handshakes per address across server processes on Postgres",
  () => {
    let first: TestApp;
    let second: TestApp;
    let firstUrl: string;
    let secondUrl: string;
    beforeAll(async () => {
      first = await createTestApp({ socketHandshakes: { max: 2, windowMs: 60_000 } });
      second = await createTestApp({
        socketHandshakes: { max: 2, windowMs: 60_000 },
        database: first.database,
      });
      firstUrl = await listenOnFreePort(first);
      secondUrl = await listenOnFreePort(second);
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    /** Connects and disconnects at once: true when accepted, else the refusal. */
    const handshakeAt = (at: string) =>
      new Promise<true | string>((resolve) => {
        const socket = connect(at, { transports: ["websocket"], reconnection: false });
        socket.once("connect", () => {
          socket.disconnect();
          resolve(true);
        });
        socket.once("connect_error", (error) => {
          socket.disconnect();
          resolve(error.message);
        });
      });

    it("allows one address the handshake limit once across two processes, not once in each", async () => {
      expect(await handshakeAt(firstUrl)).toBe(true);
      expect(await handshakeAt(secondUrl)).toBe(true);
      expect(await handshakeAt(firstUrl)).toBe(ERROR_CATALOGUE.rateLimit.title);
      expect(await handshakeAt(secondUrl)).toBe(ERROR_CATALOGUE.rateLimit.title);
    });
  },
);
