import { z } from "zod";
import { ADMIN_API, pageQuerySchema, paginationSchema } from "./admin.ts";
import { roleSchema } from "./auth.ts";
import { defineRoute } from "./common.ts";

export const AUDIT_ACTIONS = [
  "role_change",
  "active_change",
  "payment_key_view",
  "claim_complete",
  "claim_reject",
  /** A user downloaded a backup of their own wallet keys (the Account page). */
  "keys_export",
  /** An admin published, edited, hid or showed again a news item of the banner. */
  "news_publish",
  "news_edit",
  "news_hide",
  "news_show",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One privileged action: who, what, on which object, when, why. */
export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({
    userId: z.string(),
    /** The actor's key, first 6 characters. */
    keyPrefix: z.string(),
    role: roleSchema,
  }),
  action: z.enum(AUDIT_ACTIONS),
  target: z.object({ type: z.enum(["user", "draft", "claim", "news"]), id: z.string() }),
  reason: z.string().nullable(),
  /** What changed (from/to role, the payment address viewed, the payout's amount...). */
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** Superadmins only: newest first, `?page=N`. */
export const auditLogRoute = defineRoute({
  method: "GET",
  path: `${ADMIN_API}/audit`,
  access: "superadmin",
  query: pageQuerySchema,
  body: undefined,
  response: z.object({
    success: z.literal(true),
    entries: z.array(auditEntrySchema),
    pagination: paginationSchema,
  }),
});
