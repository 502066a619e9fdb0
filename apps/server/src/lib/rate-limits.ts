import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { ServiceUnavailableError } from "./errors.ts";

/** How many hits a key has in its current window, and how long until the window ends. */
export interface Hits {
  hits: number;
  ttlMs: number;
}

/**
 * Counts hits per key in fixed windows (a window opens with a key's first hit and lasts
 * `windowMs`): the rate limits and the socket handshake limit count through one.
 */
export interface HitCounter {
  hit(key: string, windowMs: number): Promise<Hits>;
  close(): void;
}

/** In this process's memory: the embedded database's one process. */
export const memoryHitCounter = (): HitCounter => {
  const windows = new Map<string, { hits: number; endsAt: number }>();
  let sweepAt = 0;
  return {
    hit: async (key, windowMs) => {
      const now = Date.now();
      if (now >= sweepAt) {
        for (const [known, window] of windows) if (window.endsAt <= now) windows.delete(known);
        sweepAt = now + 60_000;
      }
      let window = windows.get(key);
      if (!window || window.endsAt <= now) {
        window = { hits: 0, endsAt: now + windowMs };
        windows.set(key, window);
      }
      window.hits += 1;
      return { hits: window.hits, ttlMs: window.endsAt - now };
    },
    close: () => {},
  };
};

interface Waiting {
  windowMs: number;
  resolve: (hits: Hits) => void;
  reject: (error: unknown) => void;
}

/** How often expired windows are deleted from `rate_limits`, ms. */
const SWEEP_MS = 60_000;

/**
 * In Postgres (`rate_limits`, migration 0016), shared by every server process on the database,
 * so N processes allow what one does, not N times as much. One statement per key at a time: the
 * hits of one key that arrive while its statement is out are added together in the next one
 * (each caller gets its own place in the count), so a flood from one address costs a few
 * statements per round trip, not one each queued behind the others on the pool.
 */
export const postgresHitCounter = (db: Db): HitCounter => {
  const keys = new Map<string, { waiting: Waiting[]; busy: boolean }>();

  const flush = async (key: string) => {
    const entry = keys.get(key);
    if (!entry || entry.busy) return;
    const taken = entry.waiting.splice(0);
    if (taken.length === 0) {
      keys.delete(key);
      return;
    }
    entry.busy = true;
    try {
      const windowMs = Math.max(...taken.map((waiting) => waiting.windowMs));
      const result = await db.execute<{ hits: number; ttl_ms: number }>(sql`
        insert into rate_limits as r (key, hits, resets_at)
        values (${key}, ${taken.length}, now() + ${windowMs} * interval '1 millisecond')
        on conflict (key) do update set
          hits = case when r.resets_at <= now() then excluded.hits else r.hits + excluded.hits end,
          resets_at = case when r.resets_at <= now() then excluded.resets_at else r.resets_at end
        returning hits, greatest(0, extract(epoch from (resets_at - now())) * 1000)::float8 as ttl_ms`);
      const row = result.rows[0];
      if (!row) throw new Error("rate_limits answered no row");
      const last = Number(row.hits);
      const ttlMs = Math.ceil(Number(row.ttl_ms));
      for (const [i, waiting] of taken.entries())
        waiting.resolve({ hits: last - taken.length + 1 + i, ttlMs });
    } catch (error) {
      for (const waiting of taken) waiting.reject(error);
    } finally {
      entry.busy = false;
      void flush(key);
    }
  };

  const sweep = setInterval(() => {
    db.execute(sql`delete from rate_limits where resets_at < now()`).catch(() => {});
  }, SWEEP_MS);
  sweep.unref();

  return {
    hit: (key, windowMs) =>
      new Promise<Hits>((resolve, reject) => {
        let entry = keys.get(key);
        if (!entry) {
          entry = { waiting: [], busy: false };
          keys.set(key, entry);
        }
        entry.waiting.push({ windowMs, resolve, reject });
        if (!entry.busy) void flush(key);
      }),
    close: () => clearInterval(sweep),
  };
};

/** Why a call that moves money is refused while its rate limit cannot be counted. */
export const RATE_COUNT_UNAVAILABLE =
  "The server cannot count requests right now, so it takes no calls that move money: try again in a minute";

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * Ends the rate-limit key of a request whose route moves money (`RouteDef.movesMoney`): the
 * store counts it with the rest of its address's requests, and refuses it when the count fails.
 */
export const MOVES_MONEY = "|moves-money";

/**
 * A store for @fastify/rate-limit over `counter`: the global limit counts under "api:" and each
 * route with limits of its own under its method and path, as the plugin's own store keeps them.
 * A count that fails lets a request through (it is refused elsewhere soon enough if the
 * database is really away), except one that moves money (its key ends with MOVES_MONEY):
 * that is refused, 503 with RATE_COUNT_UNAVAILABLE, since its limit is what stands between a
 * flood and the chain.
 */
export const rateLimitStore = (counter: HitCounter) => {
  class HitCounterStore {
    /** The plugin passes its options first; they are not needed here. */
    constructor(
      _options?: unknown,
      readonly prefix = "api:",
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      const closed = key.endsWith(MOVES_MONEY);
      const counted = closed ? key.slice(0, -MOVES_MONEY.length) : key;
      counter.hit(`${this.prefix}${counted}`, timeWindow).then(
        ({ hits, ttlMs }) => callback(null, { current: hits, ttl: ttlMs }),
        () =>
          closed
            ? callback(new ServiceUnavailableError(RATE_COUNT_UNAVAILABLE))
            : callback(null, { current: 0, ttl: timeWindow }),
      );
    }

    /** The store of a route with limits of its own (the plugin's merged options name it). */
    child(options: object) {
      const route =
        (options as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ?? {};
      return new HitCounterStore(
        undefined,
        `${[route.method].flat().join(",")} ${route.url ?? ""}:`,
      );
    }
  }
  return HitCounterStore;
};
