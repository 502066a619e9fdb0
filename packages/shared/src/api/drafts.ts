import { z } from "zod";
import { tipError } from "../launch-checks.ts";
import { defineRoute } from "./common.ts";
import { addressSchema, bnbAmountSchema, MAX_BUNDLE_WALLETS, privateKeySchema } from "./money.ts";

export const TOKEN_TAGS = [
  "Meme",
  "AI",
  "Defi",
  "Games",
  "Infra",
  "De-Sci",
  "Social",
  "Depin",
  "Charity",
  "Others",
] as const;
export const DRAFT_STATUSES = [
  "draft",
  "pending_payment",
  "paid",
  "executing",
  "executed",
] as const;
export type DraftStatus = (typeof DRAFT_STATUSES)[number];

/** Logo as a data URL: at most 500 KB after compression, so about 700 KB of base64. */
const MAX_IMAGE_CHARS = 700_000;

export const tokenInfoSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Please enter a token name")
    .max(20, "Token name must be 20 characters or less"),
  symbol: z
    .string()
    .trim()
    .min(1, "Please enter a token ticker")
    .max(10, "Ticker must be less than 10 characters"),
  description: z
    .string()
    .trim()
    .min(1, "Please enter a token description")
    .max(400, "Description must be 400 characters or less"),
  image: z
    .string()
    .max(
      MAX_IMAGE_CHARS,
      "Image is too large after compression. Please use a smaller image (max 500KB).",
    )
    .default(""),
  twitter: z.string().trim().max(200).default(""),
  telegram: z.string().trim().max(200).default(""),
  website: z.string().trim().max(200).default(""),
  tradingFee: z.string().default("0.25"),
  /** The deployer's own first buy, BNB. */
  preSale: bnbAmountSchema.default("0"),
  tag: z.enum(TOKEN_TAGS).default("Meme"),
});
export type TokenInfo = z.infer<typeof tokenInfoSchema>;

export const keyedWalletSchema = z.object({ address: addressSchema, privateKey: privateKeySchema });

export const walletConfigSchema = z.object({
  wallets: z
    .array(
      keyedWalletSchema.extend({
        buyValue: bnbAmountSchema.default("0"),
        /** Tokens the buy was quoted to get in the bundle's order (18-decimal units), if known. */
        tokenAmount: z.string().regex(/^\d+$/, "must be a whole number of token units").optional(),
      }),
    )
    .max(MAX_BUNDLE_WALLETS)
    .default([]),
  /**
   * The builder tip, BNB. A draft may be saved without one (""); paying and executing need it
   * (SPEC §5), and a tip that is not a number or is negative is refused with the spec's words.
   */
  tip: z
    .string()
    .trim()
    .default("0.001")
    .superRefine((tip, context) => {
      const problem = tip === "" ? null : tipError(tip);
      if (problem) context.addIssue({ code: "custom", message: problem });
    }),
  /** Who pays the tip; the deployer when absent. */
  tipPayer: keyedWalletSchema.optional(),
  buyAmount: z
    .object({ min: bnbAmountSchema, max: bnbAmountSchema, isPercentage: z.boolean() })
    .optional(),
  tipEnabled: z.boolean().default(true),
  delayEnabled: z.boolean().default(false),
  /** Delayed bundle: one of the wallets buys this long after the launch. */
  delaySnipeAddress: addressSchema.optional(),
  minDelay: z.number().int().min(0).default(0),
  maxDelay: z.number().int().min(0).default(0),
});
export type WalletConfig = z.infer<typeof walletConfigSchema>;

export const draftInputSchema = z.object({
  tokenInfo: tokenInfoSchema,
  deployerWallet: keyedWalletSchema.optional(),
  walletConfig: walletConfigSchema.optional(),
});
export type DraftInput = z.input<typeof draftInputSchema>;

/** A refund of a payment that came late, twice or too large. */
export const refundSchema = z.object({
  to: addressSchema,
  amount: bnbAmountSchema,
  reason: z.string(),
  txHash: z.string().nullable(),
  status: z.enum(["pending", "sent", "failed"]),
});

export const draftSchema = z.object({
  _id: z.string(),
  status: z.enum(DRAFT_STATUSES),
  tokenInfo: tokenInfoSchema,
  deployerWallet: keyedWalletSchema.nullable(),
  walletConfig: walletConfigSchema,
  paymentAddress: addressSchema.nullable(),
  paymentAmount: bnbAmountSchema.nullable(),
  paymentExpiresAt: z.string().nullable(),
  /** Drafts expire unless they hold money (wallets with BNB or tokens keep their draft). */
  expiresAt: z.string().nullable(),
  updatedAt: z.string(),
  refunds: z.array(refundSchema).default([]),
  launch: z
    .object({
      tokenAddress: addressSchema,
      blockNumber: z.string(),
      atomicWallets: z.number(),
      totalWallets: z.number(),
    })
    .nullable(),
});
export type Draft = z.infer<typeof draftSchema>;

const idParams = z.object({ id: z.string().uuid("Draft not found") });

export { idParams as draftIdParamsSchema };

export const createDraftRoute = defineRoute({
  method: "POST",
  path: "/api/draft/create",
  access: "user",
  body: draftInputSchema,
  response: z.object({ success: z.literal(true), draft: draftSchema, draftId: z.string() }),
});

export const listDraftsRoute = defineRoute({
  method: "GET",
  path: "/api/draft/list",
  access: "user",
  body: undefined,
  response: z.object({ success: z.literal(true), drafts: z.array(draftSchema) }),
});

export const getDraftRoute = defineRoute({
  method: "GET",
  path: "/api/draft/:id",
  access: "user",
  body: undefined,
  response: z.object({ success: z.literal(true), draft: draftSchema }),
});

export const updateDraftRoute = defineRoute({
  method: "PUT",
  path: "/api/draft/:id",
  access: "user",
  body: draftInputSchema,
  response: z.object({ success: z.literal(true), draft: draftSchema, draftId: z.string() }),
});

export const deleteDraftRoute = defineRoute({
  method: "DELETE",
  path: "/api/draft/:id",
  access: "user",
  body: undefined,
  response: z.object({ success: z.literal(true) }),
});

export const PAYMENT_WINDOW_SECONDS = 600;

export const startPaymentRoute = defineRoute({
  method: "POST",
  path: "/api/draft/:id/payment",
  access: "user",
  body: undefined,
  response: z.object({
    success: z.literal(true),
    paymentAddress: addressSchema,
    paymentAmount: bnbAmountSchema,
    expiresAt: z.string(),
  }),
});

export const paymentStatusRoute = defineRoute({
  method: "GET",
  path: "/api/draft/:id/payment/status",
  access: "user",
  body: undefined,
  response: z.object({
    success: z.literal(true),
    isPaid: z.boolean(),
    status: z.enum(DRAFT_STATUSES),
    received: bnbAmountSchema,
    expiresAt: z.string().nullable(),
  }),
});

export const cancelPaymentRoute = defineRoute({
  method: "POST",
  path: "/api/draft/:id/payment/cancel",
  access: "user",
  body: undefined,
  response: z.object({ success: z.literal(true), message: z.string() }),
});

export const executeDraftRoute = defineRoute({
  method: "POST",
  path: "/api/draft/:id/execute",
  access: "user",
  body: undefined,
  response: z.object({ success: z.literal(true), message: z.string() }),
});

/**
 * The same engine for a payload encrypted with the caller's access key:
 * `data` = base64(iv ‖ AES-256-GCM(key = SHA-256(accessKey), JSON {draftId, ...})).
 */
export const executeBundleRoute = defineRoute({
  method: "POST",
  path: "/api/bundle/execute",
  access: "user",
  body: z.object({ data: z.string().min(1).max(3_000_000) }),
  response: z.object({ success: z.literal(true), message: z.string() }),
});
