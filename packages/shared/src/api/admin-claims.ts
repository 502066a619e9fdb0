import { z } from "zod";
import {
  ADMIN_API,
  adminClaimSchema,
  adminIdParamsSchema,
  pageQuerySchema,
  paginationSchema,
} from "./admin.ts";
import { defineRoute } from "./common.ts";

/** `GET /claims?status=pending&page=1`: every user's claims, newest first. */
export const adminClaimsQuerySchema = pageQuerySchema.extend({
  status: z
    .enum(["pending", "completed", "rejected"], {
      error: "status must be pending, completed or rejected",
    })
    .optional(),
});

export const adminClaimsRoute = defineRoute({
  method: "GET",
  path: `${ADMIN_API}/claims`,
  access: "admin",
  query: adminClaimsQuerySchema,
  body: undefined,
  response: z.object({
    success: z.literal(true),
    claims: z.array(adminClaimSchema),
    pagination: paginationSchema,
  }),
});

/**
 * Pays a pending claim from the treasury wallet: the payout is sent (through the transaction
 * manager, once per claim) and the claim answered with its `txHash`, still pending; it turns
 * completed when the payout is mined. A failed payout leaves it pending with the reason, and
 * completing it again sends a new payout.
 */
export const completeClaimRoute = defineRoute({
  method: "POST",
  path: `${ADMIN_API}/claims/:id/complete`,
  access: "admin",
  movesMoney: true,
  params: adminIdParamsSchema,
  body: undefined,
  response: z.object({ success: z.literal(true), claim: adminClaimSchema, message: z.string() }),
});

/** Rejects a pending claim (not while its payout is on its way): the amount returns to claimable. */
export const rejectClaimRoute = defineRoute({
  method: "POST",
  path: `${ADMIN_API}/claims/:id/reject`,
  access: "admin",
  params: adminIdParamsSchema,
  body: z
    .object({ reason: z.string().trim().max(500, "The reason must be at most 500 characters") })
    .partial()
    .optional(),
  response: z.object({ success: z.literal(true), claim: adminClaimSchema, message: z.string() }),
});
