import type { AddressInfo } from "node:net";
import { ERROR_CATALOGUE } from "@bundler/shared";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app.ts";

let app: TestApp;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  app = await createTestApp();
  await app.server.listen({ host: "127.0.0.1", port: 0 });
  url = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await app.close();
});

const open = (key?: string) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect(url, {
      auth: key ? { key } : {},
      transports: ["websocket"],
      reconnection: false,
    });
    sockets.push(socket);
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });

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
  const WINDOW_MS = 5000;
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
    const first = await Promise.all(Array.from({ length: 60 }, handshake));
    expect(first.every((accepted) => accepted === true)).toBe(true);
    expect(await handshake()).toBe(ERROR_CATALOGUE.rateLimit.title);
    // Make sure the burst fit in the window, or the refusal above proved nothing.
    expect(Date.now() - started).toBeLessThan(WINDOW_MS);
    await new Promise((resolve) => setTimeout(resolve, started + WINDOW_MS + 100 - Date.now()));
    expect(await handshake()).toBe(true);
  });
});
