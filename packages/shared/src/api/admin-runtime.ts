import { z } from "zod";
import { ADMIN_API } from "./admin.ts";
import { defineRoute } from "./common.ts";

/** Percentiles of one window, milliseconds. */
const percentilesSchema = z.object({ p50: z.number(), p99: z.number(), max: z.number() });

/** One route's server time (from the request's arrival to its answer sent) in the window. */
export const runtimeRouteSchema = z.object({
  /** Method and URL pattern, e.g. "GET /api/draft/:id/payment/status". */
  route: z.string(),
  count: z.number().int().min(0),
  p50Ms: z.number(),
  p99Ms: z.number(),
  maxMs: z.number(),
});
export type RuntimeRoute = z.infer<typeof runtimeRouteSchema>;

export const runtimeResponseSchema = z.object({
  success: z.literal(true),
  /** When the window began (the server's start or the last reset). */
  since: z.string(),
  /** How late the event loop ran its timers, sampled every 10 ms (Node's monitorEventLoopDelay). */
  eventLoopDelayMs: percentilesSchema,
  /** Every route answered in the window, slowest p99 first. */
  routes: z.array(runtimeRouteSchema),
});
export type RuntimeResponse = z.infer<typeof runtimeResponseSchema>;

/** This process's event-loop delay and server time per route since its start or the last reset. */
export const adminRuntimeRoute = defineRoute({
  method: "GET",
  path: `${ADMIN_API}/runtime`,
  access: "admin",
  query: undefined,
  body: undefined,
  response: runtimeResponseSchema,
});

/** Starts a fresh window; answers the figures of the window it ended. */
export const resetAdminRuntimeRoute = defineRoute({
  method: "POST",
  path: `${ADMIN_API}/runtime/reset`,
  access: "admin",
  query: undefined,
  body: undefined,
  response: runtimeResponseSchema,
});
