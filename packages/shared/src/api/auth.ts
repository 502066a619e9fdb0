import { z } from "zod";
import { ROLES } from "../constants.ts";
import { defineRoute } from "./common.ts";
import { addressSchema, bnbValueSchema } from "./money.ts";
import { optionalReferralCodeSchema } from "./referral.ts";

export const roleSchema = z.enum(ROLES);

/** The browser's device id (kept in its auth data): one free key per device. */
export const deviceIdSchema = z.string().trim().min(8, "deviceId is required").max(128);

export const generateFreeKeyRoute = defineRoute({
  method: "POST",
  path: "/api/auth/key/generate-free",
  access: "public",
  body: z.object({
    deviceId: deviceIdSchema,
    userAgent: z.string().max(512).default(""),
    /** The code `?referral=` brought: the new user counts as referred (no discount on a free key). */
    referralCode: optionalReferralCodeSchema,
  }),
  response: z.object({ success: z.literal(true), key: z.string() }),
});
export type GenerateFreeKeyBody = z.input<typeof generateFreeKeyRoute.body>;

export const validateKeyRoute = defineRoute({
  method: "POST",
  path: "/api/auth/key/validate",
  reads: true,
  access: "public",
  body: z.object({ key: z.string().trim().min(1, "No authentication key provided").max(256) }),
  response: z.object({ success: z.literal(true), role: roleSchema }),
});
export type ValidateKeyResponse = z.infer<typeof validateKeyRoute.response>;

/** A key payment: waiting (open), paid (the key is handed out once), cancelled or expired. */
export const KEY_PAYMENT_STATUSES = ["open", "paid", "cancelled", "expired"] as const;
export type KeyPaymentStatus = (typeof KEY_PAYMENT_STATUSES)[number];

/**
 * Buys an access key: a fresh payment address and the BNB to send, computed once now from the
 * USD price (config `price`, less `referralDiscount` with a valid code) at the BNB/USD rate of
 * `GET /api/bumper/price`'s source. An unknown code is a 400 "Invalid referral code".
 */
export const startKeyPaymentRoute = defineRoute({
  method: "POST",
  path: "/api/auth/payment",
  access: "public",
  body: z.object({ deviceId: deviceIdSchema, referralCode: optionalReferralCodeSchema }),
  response: z.object({
    success: z.literal(true),
    paymentId: z.string(),
    paymentAddress: addressSchema,
    /** BNB to send, exactly. */
    paymentAmount: bnbValueSchema,
    expiresAt: z.string(),
    /** The key's price before any discount, USD. */
    priceUsd: z.number(),
    /** The referral discount taken off, USD (0 without a code). */
    discountUsd: z.number(),
    /** What `paymentAmount` is worth, USD: priceUsd − discountUsd. */
    amountUsd: z.number(),
    /** USD per BNB used for `paymentAmount`. */
    bnbUsdRate: z.number().positive(),
    rateSource: z.enum(["chainlink", "fixed"]),
    /** The code that was applied, as stored (its owner's spelling), or null. */
    referralCode: z.string().nullable(),
  }),
});
export type StartKeyPaymentResponse = z.infer<typeof startKeyPaymentRoute.response>;

const paymentIdSchema = z.string().uuid("Payment not found");

/** `?paymentId&deviceId`: only the device that started the payment sees it. */
const keyPaymentStatusQuery = z.object({
  paymentId: paymentIdSchema,
  deviceId: deviceIdSchema,
});

/**
 * The purchase dialog's poll. Once paid, the first call from the device that started the
 * payment answers the new key (`key`) and no call ever does again (`keyIssued` true, no `key`):
 * only its digest is kept.
 */
export const keyPaymentStatusRoute = defineRoute({
  method: "GET",
  path: "/api/auth/payment/status",
  access: "public",
  query: keyPaymentStatusQuery,
  owned: [{ in: "query", field: "paymentId", object: "keyPayment" }],
  body: undefined,
  response: z.object({
    success: z.literal(true),
    status: z.enum(KEY_PAYMENT_STATUSES),
    isPaid: z.boolean(),
    /** The new access key, in exactly one answer. */
    key: z.string().optional(),
    keyIssued: z.boolean(),
    /** BNB seen at the payment address so far. */
    received: bnbValueSchema,
    expiresAt: z.string(),
  }),
});
export type KeyPaymentStatusResponse = z.infer<typeof keyPaymentStatusRoute.response>;

/** Closes an open key payment; anything sent to its address afterwards is refunded minus gas. */
export const cancelKeyPaymentRoute = defineRoute({
  method: "POST",
  path: "/api/auth/payment/cancel",
  access: "public",
  owned: [{ in: "body", field: "paymentId", object: "keyPayment" }],
  body: z.object({ paymentId: paymentIdSchema, deviceId: deviceIdSchema }),
  response: z.object({ success: z.literal(true), message: z.string() }),
});
