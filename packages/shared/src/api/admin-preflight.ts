import { z } from "zod";
import { ADMIN_API } from "./admin.ts";
import { defineRoute } from "./common.ts";

/** What a preflight check is about, in the order they run and print. */
export const PREFLIGHT_AREAS = [
  "RPC",
  "Contracts",
  "four.meme API",
  "Builders",
  "Keys and money",
] as const;

/**
 * One check of a setup, read from the chain, the API, the builders and the database, never
 * sending anything: `failed` with `essential` stops a start off the local chain.
 */
export const preflightCheckSchema = z.object({
  area: z.enum(PREFLIGHT_AREAS),
  name: z.string(),
  status: z.enum(["ok", "warning", "failed", "skipped"]),
  essential: z.boolean(),
  /** What was found, in words. */
  detail: z.string(),
  /** What to do about a failure or a warning. */
  fix: z.string().nullable(),
});
export type PreflightCheck = z.infer<typeof preflightCheckSchema>;

export const preflightResponseSchema = z.object({
  success: z.literal(true),
  chain: z.string(),
  checkedAt: z.string(),
  /** Whether every essential check passed. */
  ready: z.boolean(),
  checks: z.array(preflightCheckSchema),
});
export type PreflightResponse = z.infer<typeof preflightResponseSchema>;

/** Superadmins only: runs every check now (reads only) and answers them. */
export const adminPreflightRoute = defineRoute({
  method: "GET",
  path: `${ADMIN_API}/preflight`,
  access: "superadmin",
  query: undefined,
  body: undefined,
  response: preflightResponseSchema,
});
