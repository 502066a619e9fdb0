import {
  AUTH_MESSAGES,
  type ServerToClientEvents,
  SOCKET_RECONNECT,
  type SocketHandshakeAuth,
} from "@bundler/shared";
import { useEffect, useEffectEvent, useSyncExternalStore } from "react";
import { io, type Socket } from "socket.io-client";
import { env } from "../config/env.ts";

export type AppSocket = Socket<ServerToClientEvents, Record<string, never>>;
export type SocketEventName = keyof ServerToClientEvents & string;

let socket: AppSocket | undefined;
let authKey: string | null = null;
let authRejectedHandler: () => void = () => {};

/** What happens when the server refuses the handshake's key (the app ends the session). */
export const setSocketAuthRejectedHandler = (handler: () => void): void => {
  authRejectedHandler = handler;
};

/** The app's one socket; created on first use, connected by `connectSocket`. */
export function getSocket(): AppSocket {
  if (!socket) {
    const options = {
      path: "/socket.io",
      autoConnect: false,
      ...SOCKET_RECONNECT,
      // Read on every (re)connect, so a reconnect always carries the current key.
      auth: (send: (auth: SocketHandshakeAuth) => void) => send(authKey ? { key: authKey } : {}),
    };
    socket = env.apiBase ? io(env.apiBase, options) : io(options);
    const s = socket;
    s.on("disconnect", (reason) => {
      // socket.io does not retry after a server-side disconnect; a restarting server is one.
      if (reason === "io server disconnect") retryLater(s);
    });
    s.on("connect_error", (error) => {
      // Transport trouble: socket.io retries by itself.
      if (s.active) return;
      // The server's middleware refused the key: as good as a 401.
      if (authKey && error.message === AUTH_MESSAGES.invalidKey) {
        authRejectedHandler();
        return;
      }
      // Any other refusal is not retried by socket.io; keep trying.
      retryLater(s);
    });
  }
  return socket;
}

function retryLater(s: AppSocket): void {
  setTimeout(() => {
    if (!s.active) s.connect();
  }, SOCKET_RECONNECT.reconnectionDelayMax);
}

/** (Re)connects with this key in the handshake, or anonymously (still receives `block`). */
export function connectSocket(key: string | null): void {
  const current = getSocket();
  if (current.active && key === authKey) return;
  authKey = key;
  if (current.active) current.disconnect();
  current.connect();
}

/**
 * Subscribes to a server event for the component's lifetime; `null` subscribes to nothing.
 * The handler may change every render without resubscribing.
 */
export function useSocketEvent<E extends SocketEventName>(
  name: E | null,
  handler: ServerToClientEvents[E],
): void {
  const onEvent = useEffectEvent((...args: unknown[]) =>
    (handler as (...a: unknown[]) => void)(...args),
  );
  useEffect(() => {
    if (name === null) return;
    // The event map's template-literal keys are too wide for socket.io's typed `on`.
    const s = getSocket() as unknown as Socket;
    const event: string = name;
    const listener = (...args: unknown[]) => onEvent(...args);
    s.on(event, listener);
    return () => {
      s.off(event, listener);
    };
  }, [name]);
}

function subscribeConnection(onChange: () => void): () => void {
  const s = getSocket();
  s.on("connect", onChange);
  s.on("disconnect", onChange);
  return () => {
    s.off("connect", onChange);
    s.off("disconnect", onChange);
  };
}

/** Whether the socket is currently connected. */
export function useSocketConnected(): boolean {
  return useSyncExternalStore(
    subscribeConnection,
    () => getSocket().connected,
    () => false,
  );
}
