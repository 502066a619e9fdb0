import { type ServerToClientEvents, SOCKET_RECONNECT } from "@bundler/shared";
import { io, type Socket } from "socket.io-client";

export type UserEventKind = "launch_status" | "dispersal_status";

/** A user event a server process emitted, as its debug log recorded it. */
export interface SentEvent {
  /** Which process sent it (its place in the deployment). */
  process: number;
  userId: string;
  kind: UserEventKind;
  message: string;
}

/** One connection and every user event it received. */
export interface Watcher {
  /** The key in its handshake; null for an anonymous connection. */
  key: string | null;
  userId: string | null;
  received: Array<{ name: string; message: string }>;
  socket: Socket<ServerToClientEvents, Record<string, never>>;
  /** Times it lost its connection while watched. */
  disconnects: number;
}

const USER_EVENT = /^(launch_status|dispersal_status)_/;

/**
 * The user events in a server's output: every JSON log line the app writes at debug level
 * when it emits one (`{userEvent, userId, msg}`).
 */
export const sentEventsIn = (output: string, process = 0): SentEvent[] => {
  const sent: SentEvent[] = [];
  for (const line of output.split("\n")) {
    if (!line.startsWith("{") || !line.includes('"userEvent"')) continue;
    try {
      const entry = JSON.parse(line) as { userEvent?: string; userId?: string; msg?: string };
      if (
        (entry.userEvent === "launch_status" || entry.userEvent === "dispersal_status") &&
        typeof entry.userId === "string" &&
        typeof entry.msg === "string"
      )
        sent.push({ process, userId: entry.userId, kind: entry.userEvent, message: entry.msg });
    } catch {
      // A line cut by the pipe: the next read has it whole.
    }
  }
  return sent;
};

export interface Tally {
  /** Per connection, the events its user was sent, summed. */
  expected: number;
  /** Of those, the ones the connection received. */
  delivered: number;
  /** User events a connection received that were named for another key (or any, anonymous). */
  foreign: number;
  /** Events named for the connection's own key that its user was never sent (or twice). */
  unsent: number;
  /**
   * Connections that did not hear one process's lines for their user in the order that process
   * sent them (a terminal would print them shuffled). Lines from different processes may
   * interleave either way.
   */
  outOfOrder: number;
}

/** Whether `wanted` appears within `seen` in its own order (other items between allowed). */
const inOrderWithin = (wanted: readonly string[], seen: readonly string[]): boolean => {
  let next = 0;
  for (const item of seen) if (item === wanted[next]) next += 1;
  return next >= wanted.length;
};

/** Compares what each connection received with what the servers sent its user. */
export const tally = (sent: readonly SentEvent[], watchers: readonly Watcher[]): Tally => {
  const result: Tally = { expected: 0, delivered: 0, foreign: 0, unsent: 0, outOfOrder: 0 };
  for (const watcher of watchers) {
    const mine = watcher.received.filter(
      (event) => watcher.key !== null && event.name.endsWith(`_${watcher.key}`),
    );
    result.foreign += watcher.received.length - mine.length;
    if (watcher.key === null) continue;
    const owed = new Map<string, number>();
    for (const event of sent) {
      if (event.userId !== watcher.userId) continue;
      const name = `${event.kind}_${watcher.key}\n${event.message}`;
      owed.set(name, (owed.get(name) ?? 0) + 1);
      result.expected += 1;
    }
    /** What it heard that it was owed, in the order it heard it. */
    const heard: string[] = [];
    for (const event of mine) {
      const name = `${event.name}\n${event.message}`;
      const left = owed.get(name) ?? 0;
      if (left > 0) {
        owed.set(name, left - 1);
        result.delivered += 1;
        heard.push(name);
      } else result.unsent += 1;
    }
    const saidBy = new Map<number, string[]>();
    for (const event of sent)
      if (event.userId === watcher.userId)
        saidBy
          .set(event.process, saidBy.get(event.process) ?? [])
          .get(event.process)
          ?.push(`${event.kind}_${watcher.key}\n${event.message}`);
    const ordered = [...saidBy].every(([process, said]) => {
      // A line another process said too could be either one's: only this process's own count.
      const others = new Set([...saidBy].flatMap(([p, lines]) => (p === process ? [] : lines)));
      const own = new Set(said.filter((line) => !others.has(line)));
      // A missing line is counted above; what was heard of this process must keep its order.
      return inOrderWithin(
        heard.filter((line) => own.has(line)),
        said.filter((line) => own.has(line)),
      );
    });
    if (!ordered) result.outOfOrder += 1;
  }
  return result;
};

/**
 * Connects to `url` the way the web app does (apps/web/src/lib/socket.ts: its path, its
 * reconnection settings, polling first then websocket, the key in the handshake's `auth`) and
 * records every user event it hears. Resolves once connected.
 */
export const watch = (url: string, key: string | null, userId: string | null) =>
  new Promise<Watcher>((resolve, reject) => {
    const socket: Watcher["socket"] = io(url, {
      path: "/socket.io",
      ...SOCKET_RECONNECT,
      auth: key ? { key } : {},
    });
    const watcher: Watcher = { key, userId, received: [], socket, disconnects: 0 };
    (socket as unknown as Socket).onAny((name: string, payload: unknown) => {
      if (!USER_EVENT.test(name)) return;
      const message = (payload as { message?: unknown } | undefined)?.message;
      watcher.received.push({ name, message: typeof message === "string" ? message : "" });
    });
    socket.on("disconnect", () => {
      watcher.disconnects += 1;
    });
    socket.once("connect", () => resolve(watcher));
    socket.once("connect_error", (error) => {
      if (!socket.active) reject(error);
    });
  });
