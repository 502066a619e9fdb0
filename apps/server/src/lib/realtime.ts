import type { Server as HttpServer } from "node:http";
import { ERROR_CATALOGUE, type SocketHandshakeAuth } from "@bundler/shared";
import { Server } from "socket.io";
import type { AuthService } from "../modules/auth/auth.service.ts";

export type UserEventKind = "launch_status" | "dispersal_status";

interface SocketData {
  userId?: string;
  /** Kept only for the connection's life: per-user event names carry the key (SPEC §7). */
  key?: string;
}

const roomFor = (userId: string) => `user:${userId}`;

export interface HandshakeLimit {
  /** Handshakes one address may make per window. */
  max: number;
  windowMs: number;
}

/**
 * Counts handshakes per address in fixed windows, in this process's memory: with several
 * server processes each allows `max` (the README says so).
 */
const handshakeCounter = ({ max, windowMs }: HandshakeLimit) => {
  const windows = new Map<string, { count: number; endsAt: number }>();
  let sweepAt = 0;
  return (address: string, now = Date.now()): boolean => {
    if (now >= sweepAt) {
      for (const [key, window] of windows) if (window.endsAt <= now) windows.delete(key);
      sweepAt = now + windowMs;
    }
    let window = windows.get(address);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      windows.set(address, window);
    }
    window.count += 1;
    return window.count <= max;
  };
};

/**
 * socket.io on the API's own server. A connection may come without a key (it then
 * only hears the broadcast `block`); with a key in the handshake's `auth` it joins
 * its owner's private room. Per-user events go only into that room.
 */
export class Realtime {
  readonly io: Server<
    Record<string, never>,
    Record<string, (payload: unknown) => void>,
    Record<string, never>,
    SocketData
  >;

  constructor(
    server: HttpServer,
    auth: AuthService,
    allowedOrigins: string[],
    handshakeLimit: HandshakeLimit = { max: 60, windowMs: 60_000 },
  ) {
    this.io = new Server(server, {
      path: "/socket.io",
      cors: { origin: allowedOrigins, credentials: true },
      serveClient: false,
    });
    const allowHandshake = handshakeCounter(handshakeLimit);
    this.io.use((socket, next) => {
      if (allowHandshake(socket.handshake.address)) return next();
      // The client reads this as its connect_error's message.
      const refusal = Object.assign(new Error(ERROR_CATALOGUE.rateLimit.title), {
        data: { status: 429 },
      });
      next(refusal);
    });
    this.io.use(async (socket, next) => {
      const { key } = (socket.handshake.auth ?? {}) as SocketHandshakeAuth;
      if (!key) return next();
      try {
        const user = await auth.authenticate(key);
        if (!user) return next(new Error("Invalid access key"));
        socket.data.userId = user.id;
        socket.data.key = key;
        await socket.join(roomFor(user.id));
        next();
      } catch (error) {
        next(error as Error);
      }
    });
  }

  broadcastBlock(blockNumber: number): void {
    this.io.emit("block", blockNumber);
  }

  /** Emits `{kind}_{key}` to every connection of one user, and to nobody else. */
  async emitToUser(
    userId: string,
    kind: UserEventKind,
    payload: { message: string },
  ): Promise<void> {
    const sockets = await this.io.in(roomFor(userId)).fetchSockets();
    for (const socket of sockets) {
      if (socket.data.userId === userId && socket.data.key)
        socket.emit(`${kind}_${socket.data.key}`, payload);
    }
  }

  /**
   * Drops every connection at the transport level; the HTTP server itself is closed by its owner.
   * No socket.io DISCONNECT packet is sent: a client told "io server disconnect" would never
   * reconnect, while a closed transport makes it retry until the server is back.
   */
  disconnectAll(): void {
    this.io.engine.close();
  }
}
