// A typed wrapper around autocannon's programmatic API (the package ships no types).
import { createRequire } from "node:module";

interface Histogram {
  mean: number;
  p99: number;
}

interface AutocannonResult {
  requests: Histogram & { total: number };
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}

interface AutocannonOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
}

const require = createRequire(import.meta.url);
const autocannon = require("autocannon") as (
  options: AutocannonOptions,
) => Promise<AutocannonResult>;

export interface LoadResult {
  rps: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

export interface LoadTarget {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  json?: unknown;
}

const run = async (target: LoadTarget, connections: number, seconds: number) => {
  const options: AutocannonOptions = {
    url: target.url,
    method: target.method ?? "GET",
    headers: { ...target.headers },
    connections,
    duration: seconds,
  };
  if (target.json !== undefined) {
    options.headers = { ...options.headers, "content-type": "application/json" };
    options.body = JSON.stringify(target.json);
  }
  return autocannon(options);
};

/** A discarded warm-up run, then the measured run. */
export const measure = async (
  target: LoadTarget,
  options: { connections?: number; seconds?: number; warmupSeconds?: number } = {},
): Promise<LoadResult> => {
  const connections = options.connections ?? 50;
  await run(target, connections, options.warmupSeconds ?? 2);
  const result = await run(target, connections, options.seconds ?? 10);
  return {
    rps: result.requests.mean,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count]),
    ),
  };
};
