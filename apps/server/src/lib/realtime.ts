import type { Server as HttpServer } from "node:http";
import type { SocketHandshakeAuth } from "@bundler/shared";
import { Server } from "socket.io";
import type { AuthService } from "../modules/auth/auth.service.ts";

export type UserEventKind = "launch_status" | "dispersal_status";

interface SocketData {
  userId?: string;
  /** Kept only for the connection's life: per-user event names carry the key (SPEC §7). */
  key?: string;
}

const roomFor = (userId: string) => `user:${userId}`;

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

  constructor(server: HttpServer, auth: AuthService, allowedOrigins: string[]) {
    this.io = new Server(server, {
      path: "/socket.io",
      cors: { origin: allowedOrigins, credentials: true },
      serveClient: false,
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
