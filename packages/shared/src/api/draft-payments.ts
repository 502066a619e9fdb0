import { z } from "zod";
import { defineRoute } from "./common.ts";
import { DRAFT_STATUSES, draftIdParamsSchema } from "./drafts.ts";
import { addressSchema, bnbValueSchema } from "./money.ts";

/** How long a launch-fee payment address waits for its payment, seconds. */
export const PAYMENT_WINDOW_SECONDS = 600;

export const startPaymentRoute = defineRoute({
  method: "POST",
  path: "/api/draft/:id/payment",
  access: "user",
  params: draftIdParamsSchema,
  owned: [{ in: "params", field: "id", object: "draft" }],
  body: undefined,
  response: z.object({
    success: z.literal(true),
    paymentAddress: addressSchema,
    /** Always sent by this server; a client shows FALLBACK_PAYMENT_AMOUNT_BNB without one. */
    paymentAmount: bnbValueSchema.nullish(),
    expiresAt: z.string(),
  }),
});

export const paymentStatusRoute = defineRoute({
  method: "GET",
  path: "/api/draft/:id/payment/status",
  access: "user",
  params: draftIdParamsSchema,
  owned: [{ in: "params", field: "id", object: "draft" }],
  body: undefined,
  response: z.object({
    success: z.literal(true),
    isPaid: z.boolean(),
    status: z.enum(DRAFT_STATUSES),
    received: bnbValueSchema,
    expiresAt: z.string().nullable(),
  }),
});

export const cancelPaymentRoute = defineRoute({
  method: "POST",
  path: "/api/draft/:id/payment/cancel",
  access: "user",
  params: draftIdParamsSchema,
  owned: [{ in: "params", field: "id", object: "draft" }],
  body: undefined,
  response: z.object({ success: z.literal(true), message: z.string() }),
});
