import pg from "pg";

/** What a `LISTEN` on one channel tells its owner. */
export interface ChannelHandlers {
  /** A notification's payload, after the transaction that sent it committed. */
  message(payload: string): void;
  /** Listening (again): every notification from here on arrives. */
  listening(): void;
  /** Not listening: notifications may be missed until `listening` is called again. */
  lost(): void;
}

/** Stops listening and closes what the listener holds. */
export type StopListening = () => Promise<void>;

export interface PgListenerOptions {
  /** The first wait before reconnecting, ms; it doubles up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
}

/**
 * `LISTEN channel` on a dedicated connection (a pooled one would be handed to other queries),
 * reconnecting with backoff whenever it drops. Resolves after the first attempt, whether or
 * not it connected; `handlers.lost` is called on every drop or failed attempt.
 */
export const listenPg = async (
  connectionString: string,
  channel: string,
  handlers: ChannelHandlers,
  options: PgListenerOptions = {},
): Promise<StopListening> => {
  const firstRetryMs = options.retryMs ?? 250;
  const maxRetryMs = options.maxRetryMs ?? 5_000;
  let retryMs = firstRetryMs;
  let current: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const drop = (client: pg.Client) => {
    if (current !== client) return;
    current = undefined;
    client.end().catch(() => {});
    handlers.lost();
    if (stopped) return;
    timer = setTimeout(() => void connect(), retryMs);
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  };

  const connect = async () => {
    const client = new pg.Client({ connectionString, keepAlive: true });
    current = client;
    // An idle connection that ends (a restart, a failover, pg_terminate_backend) reaches us as
    // "error" then "end"; unheard, "error" would crash the process.
    client.on("error", () => drop(client));
    client.on("end", () => drop(client));
    client.on("notification", (notification) => {
      if (notification.channel === channel) handlers.message(notification.payload ?? "");
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch {
      drop(client);
      return;
    }
    if (current !== client) return;
    retryMs = firstRetryMs;
    handlers.listening();
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
  };
};
