import { ERROR_CATALOGUE } from "@bundler/shared";
import { sql } from "drizzle-orm";
import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/app.ts";
import { closeSockets, collect, listenOnFreePort, openAt, within } from "../test/socket-clients.ts";

afterAll(() => closeSockets());

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
