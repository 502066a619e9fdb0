import type { AddressInfo } from "node:net";
import { io as connect, type Socket } from "socket.io-client";
import type { TestApp } from "./app.ts";

/** Socket.io clients of the realtime tests, and what they share. */
const sockets: Socket[] = [];

/** Disconnects every client `openAt` opened (a file's afterAll). */
export const closeSockets = (): void => {
  for (const socket of sockets.splice(0)) socket.disconnect();
};

/** Keeps `socket` to be disconnected by `closeSockets`. */
export const track = (socket: Socket): Socket => {
  sockets.push(socket);
  return socket;
};

/** The most recent client `openAt` opened, before it connects. */
export const lastSocket = (): Socket | undefined => sockets.at(-1);

export const listenOnFreePort = async (testApp: TestApp): Promise<string> => {
  await testApp.server.listen({ host: "127.0.0.1", port: 0 });
  return `http://127.0.0.1:${(testApp.server.server.address() as AddressInfo).port}`;
};

/** A client of the server at `at`, with `key` in its handshake; resolves once connected. */
export const openAt = (at: string, key?: string): Promise<Socket> =>
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

/** Every event `socket` hears from now on, by name. */
export const collect = (socket: Socket): Array<[string, unknown]> => {
  const events: Array<[string, unknown]> = [];
  socket.onAny((name: string, payload: unknown) => events.push([name, payload]));
  return events;
};

/** Polls until `check` holds; fails past `withinMs`. */
export const within = async (withinMs: number, check: () => Promise<boolean>): Promise<void> => {
  const began = performance.now();
  while (!(await check())) {
    if (performance.now() - began > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
