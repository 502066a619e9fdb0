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
  secret: true,
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
  secret: true,
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

/** How an access key came: generated free for a device, bought, or minted (CLI, first start). */
export const KEY_KINDS = ["free", "purchased", "minted"] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

/** The caller's own account: what kind of key it is, its role and when it was made. */
export const accountRoute = defineRoute({
  method: "GET",
  path: "/api/auth/account",
  access: "user",
  body: undefined,
  response: z.object({
    success: z.literal(true),
    account: z.object({
      kind: z.enum(KEY_KINDS),
      role: roleSchema,
      createdAt: z.string(),
    }),
  }),
});
export type Account = z.infer<typeof accountRoute.response>["account"];

/** Wallet keys a user owns, by what they are for (payment addresses are the platform's). */
export const ACCOUNT_KEY_PURPOSES = ["deployer", "bundle", "tip", "bumper", "dispersal"] as const;

export const accountKeySchema = z.object({
  address: addressSchema,
  purpose: z.enum(ACCOUNT_KEY_PURPOSES),
  privateKey: z.string().regex(/^0x[0-9a-f]{64}$/),
  /** The draft it was saved with, when it belongs to one. */
  draftId: z.string().nullable(),
  createdAt: z.string(),
});
export type AccountKey = z.infer<typeof accountKeySchema>;

/**
 * Every private key the server holds for the caller (deployer, bundle, tip, bumper and
 * dispersal wallets), one per address and purpose, oldest first: what the Account page's backup
 * file encrypts. Sent with `Cache-Control: no-store`, and each export is written to the audit log.
 */
export const accountKeysRoute = defineRoute({
  method: "GET",
  path: "/api/auth/account/keys",
  access: "user",
  secret: true,
  body: undefined,
  response: z.object({ success: z.literal(true), keys: z.array(accountKeySchema) }),
});
export type AccountKeysResponse = z.infer<typeof accountKeysRoute.response>;

/** The Account page's backup file (encrypted in the browser; see the web's key-backup.ts). */
export const ACCOUNT_BACKUP_FORMAT = "launch-bundler-backup";
export const ACCOUNT_BACKUP_VERSION = 1;
/** A file that asks for more PBKDF2 rounds than this would only hang the tab: refused. */
export const ACCOUNT_BACKUP_MAX_ITERATIONS = 10_000_000;

const base64Schema = z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/);

export const accountBackupFileSchema = z.object({
  format: z.literal(ACCOUNT_BACKUP_FORMAT),
  version: z.literal(ACCOUNT_BACKUP_VERSION),
  createdAt: z.string(),
  kdf: z.object({
    name: z.literal("PBKDF2"),
    hash: z.literal("SHA-256"),
    iterations: z.number().int().min(1).max(ACCOUNT_BACKUP_MAX_ITERATIONS),
    salt: base64Schema,
  }),
  cipher: z.object({ name: z.literal("AES-GCM"), iv: base64Schema }),
  /** AES-GCM ciphertext (tag appended) of the JSON of `accountBackupContentsSchema`. */
  data: base64Schema,
});
export type AccountBackupFile = z.infer<typeof accountBackupFileSchema>;

export const accountBackupContentsSchema = z.object({
  accessKey: z.string().min(1),
  createdAt: z.string(),
  wallets: z.array(accountKeySchema),
});
export type AccountBackupContents = z.infer<typeof accountBackupContentsSchema>;
