// A burst of clients that all stop at once, and how soon /api/health answers afterwards: the
// read queue's test and the reliability load row's "after any burst" figure (issue 27: 100
// clients polling transaction statuses for 5 s left every read unanswered for ~30 s after).
import { createRequire } from "node:module";

interface BurstOptions {
  url: string;
  method: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
}

const require = createRequire(import.meta.url);
const autocannon = require("autocannon") as (options: BurstOptions) => Promise<unknown>;

export interface Burst {
  /** The server, e.g. http://127.0.0.1:3000 (only 127.0.0.1 is ever a target). */
  origin: string;
  path: string;
  method?: "GET" | "POST";
  key?: string;
  json?: unknown;
  connections: number;
  seconds: number;
}

/** `connections` clients ask `path` as fast as they can for `seconds`, then all stop at once. */
export const burst = async (target: Burst): Promise<void> => {
  if (new URL(target.origin).hostname !== "127.0.0.1")
    throw new Error(`a burst targets 127.0.0.1 only, not ${target.origin}`);
  await autocannon({
    url: `${target.origin}${target.path}`,
    method: target.method ?? "GET",
    headers: {
      ...(target.key ? { "x-auth-key": target.key } : {}),
      ...(target.json === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(target.json === undefined ? {} : { body: JSON.stringify(target.json) }),
    connections: target.connections,
    duration: target.seconds,
  });
};

/**
 * Milliseconds until `/api/health` answers 200, waiting at most `capMs` (Infinity when it does
 * not answer by then).
 */
export const healthAnswersIn = async (origin: string, capMs = 60_000): Promise<number> => {
  const began = performance.now();
  try {
    const response = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(capMs) });
    await response.arrayBuffer();
    return response.ok ? performance.now() - began : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
};
