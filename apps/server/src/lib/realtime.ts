import type { Server as HttpServer, IncomingMessage } from "node:http";
import { ERROR_CATALOGUE, type SocketHandshakeAuth } from "@bundler/shared";
import proxyAddr from "@fastify/proxy-addr";
import { Server } from "socket.io";
import type { AuthService } from "../modules/auth/auth.service.ts";
import { hashAccessKey } from "./crypto.ts";
import { type HitCounter, memoryHitCounter } from "./rate-limits.ts";
import type { PostgresSocketAdapter } from "./socket-adapter.ts";

export type UserEventKind = "launch_status" | "dispersal_status";

interface SocketData {
  userId?: string;
  /** Kept only for the connection's life: per-user event names carry the key (SPEC §7). */
  key?: string;
  /** The key's digest: what a key change is announced by (AUTH_KEYS_CHANNEL). */
  keyHash?: string;
  /** How many key changes this process had heard when the handshake's key was checked. */
  keyChangesSeen?: number;
}

/** What one process tells the others: a user event for their own connections of that user. */
interface ServerSideEvents {
  user_event: (userId: string, kind: UserEventKind, payload: { message: string }) => void;
}

const roomFor = (userId: string) => `user:${userId}`;

export interface HandshakeLimit {
  /** Handshakes one address may make per window. */
  max: number;
  windowMs: number;
}

/** How the socket server is set up: origins, handshake limit, proxies, sharing across processes. */
export interface RealtimeOptions {
  allowedOrigins: string[];
  /** Default 60 per minute. */
  handshakeLimit?: HandshakeLimit | undefined;
  /**
   * The proxies whose `X-Forwarded-For` names the client (TRUST_PROXY, as Fastify's
   * `trustProxy`): the handshake limit then counts the client's address, not the proxy's.
   */
  trustProxy?: string[] | undefined;
  /**
   * Where handshakes are counted: in this process's memory by default; on Postgres the counter
   * every process shares (so N processes allow `max` per address, not N times `max`).
   */
  hits?: HitCounter | undefined;
  /** On Postgres: socket.io's adapter shared by every process (openPostgresSocketAdapter). */
  shared?: PostgresSocketAdapter | undefined;
  /**
   * Where each user event is recorded, at debug level, as it is emitted: the user's id, the
   * kind and the line, never the key (the server's logger; LOG_LEVEL=debug shows them).
   */
  log?: { debug(fields: { userEvent: UserEventKind; userId: string }, message: string): void };
}

/**
 * socket.io on the API's own server. A connection may come without a key (it then
 * only hears the broadcast `block`); with a key in the handshake's `auth` it joins
 * its owner's private room. Per-user events go only into that room, in whichever server
 * process the connection is: with `shared` (Postgres), a user event is passed to every other
 * process, which emits it to its own connections of that user. The access key never leaves
 * the process holding the connection: the event's name is made there.
 */
export class Realtime {
  readonly io: Server<
    Record<string, never>,
    Record<string, (payload: unknown) => void>,
    ServerSideEvents,
    SocketData
  >;
  private readonly shared: PostgresSocketAdapter | undefined;
  private readonly log: RealtimeOptions["log"];
  /** Key changes heard (keyChanged): a handshake checked before one is checked again. */
  private keyChanges = 0;

  constructor(
    server: HttpServer,
    private readonly auth: AuthService,
    options: RealtimeOptions,
  ) {
    this.shared = options.shared;
    this.log = options.log;
    this.io = new Server(server, {
      path: "/socket.io",
      cors: { origin: options.allowedOrigins, credentials: true },
      serveClient: false,
      ...(options.shared ? { adapter: options.shared.adapter } : {}),
    });
    this.io.on("user_event", (userId, kind, payload) => this.deliver(userId, kind, payload));
    const { max, windowMs } = options.handshakeLimit ?? { max: 60, windowMs: 60_000 };
    const hits = options.hits ?? memoryHitCounter();
    // A counter that cannot answer (the database is away) lets the handshake through.
    const allowHandshake = async (address: string) =>
      (await hits.hit(`socket:${address}`, windowMs).catch(() => ({ hits: 0 }))).hits <= max;
    const trusted = options.trustProxy?.length ? proxyAddr.compile(options.trustProxy) : undefined;
    const clientAddress = (request: IncomingMessage) =>
      trusted ? proxyAddr(request, trusted) : (request.socket.remoteAddress ?? "");
    this.io.use(async (socket, next) => {
      if (await allowHandshake(clientAddress(socket.request))) return next();
      // The client reads this as its connect_error's message.
      const refusal = Object.assign(new Error(ERROR_CATALOGUE.rateLimit.title), {
        data: { status: 429 },
      });
      next(refusal);
    });
    this.io.use(async (socket, next) => {
      const { key } = (socket.handshake.auth ?? {}) as SocketHandshakeAuth;
      if (!key) return next();
      socket.data.keyChangesSeen = this.keyChanges;
      try {
        const user = await auth.authenticate(key);
        if (!user) return next(new Error("Invalid access key"));
        socket.data.userId = user.id;
        socket.data.key = key;
        socket.data.keyHash = hashAccessKey(key);
        await socket.join(roomFor(user.id));
        next();
      } catch (error) {
        next(error as Error);
      }
    });
    // A key turned off while its handshake was being checked: the change was heard before the
    // connection was listed, so keyChanged did not see it. It is checked again now.
    this.io.on("connection", (socket) => {
      if (socket.data.key && socket.data.keyChangesSeen !== this.keyChanges)
        void this.checkAgain(socket);
    });
  }

  /**
   * The block number to this process's connections only: every process watches blocks itself,
   * so passing it to the others too would give each connection every block once per process.
   */
  broadcastBlock(blockNumber: number): void {
    this.io.local.emit("block", blockNumber);
  }

  /**
   * Emits `{kind}_{key}` to every connection of one user, in this process and (with `shared`)
   * in every other, and to nobody else. Logged at debug level, so what a user was sent can be
   * compared with what their connections heard (`npm run reliability`'s realtime row does).
   */
  async emitToUser(
    userId: string,
    kind: UserEventKind,
    payload: { message: string },
  ): Promise<void> {
    this.log?.debug({ userEvent: kind, userId }, payload.message);
    this.deliver(userId, kind, payload);
    if (this.shared) this.io.serverSideEmit("user_event", userId, kind, payload);
  }

  /** To this process's connections of one user. */
  private deliver(userId: string, kind: UserEventKind, payload: { message: string }): void {
    const ids = this.io.sockets.adapter.rooms.get(roomFor(userId)) ?? new Set<string>();
    for (const id of ids) {
      const socket = this.io.sockets.sockets.get(id);
      if (socket?.data.userId === userId && socket.data.key)
        socket.emit(`${kind}_${socket.data.key}`, payload);
    }
  }

  /**
   * A key changed (its digest, or "*" for any key: AUTH_KEYS_CHANNEL's payload). Each of this
   * process's connections that came with it is checked again, and one whose key no longer lets
   * it in (turned off by an admin, or gone) is disconnected at once: its events stop with the
   * key, not when the client leaves. socket.io's own disconnect, so the client does not come
   * back with the same key. A check the database could not answer keeps the connection.
   */
  async keyChanged(digest: string): Promise<void> {
    this.keyChanges++;
    const affected = [...this.io.sockets.sockets.values()].filter(
      (socket) => socket.data.key && (digest === "*" || socket.data.keyHash === digest),
    );
    await Promise.all(affected.map((socket) => this.checkAgain(socket)));
  }

  /** Disconnects a connection whose key no longer lets it in; one the database cannot answer stays. */
  private async checkAgain(socket: { data: SocketData; disconnect(close: boolean): unknown }) {
    let user: Awaited<ReturnType<AuthService["authenticate"]>>;
    try {
      user = await this.auth.authenticate(socket.data.key as string);
    } catch {
      return;
    }
    if (user?.id !== socket.data.userId) socket.disconnect(true);
  }

  /**
   * Drops every connection at the transport level; the HTTP server itself is closed by its owner.
   * No socket.io DISCONNECT packet is sent: a client told "io server disconnect" would never
   * reconnect, while a closed transport makes it retry until the server is back.
   */
  disconnectAll(): void {
    this.io.engine.close();
  }

  /** Stops sharing with the other processes and closes the adapter's pool (after the server). */
  async close(): Promise<void> {
    if (!this.shared) return;
    await this.io.sockets.adapter.close();
    await this.shared.close();
  }
}
