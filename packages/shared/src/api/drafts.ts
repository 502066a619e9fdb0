import { z } from "zod";
import { tipError } from "../launch-checks.ts";
import { defineRoute } from "./common.ts";
import { labelled } from "./field-labels.ts";
import {
  addressSchema,
  BNB_AMOUNT_LIMIT_MESSAGE,
  bnbAmountSchema,
  bnbValueSchema,
  MAX_BUNDLE_WALLETS,
  privateKeySchema,
} from "./money.ts";
import { TAX_LABELS, tokenTaxInfoSchema } from "./token-tax.ts";

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

export const TRADING_FEE_MESSAGE = "Trading fee must be a percent from 0 to 100, like 0.25";

/** The token's trading fee, percent: a short decimal from 0 to 100. */
export const tradingFeeSchema = z
  .string()
  .trim()
  .refine(
    (fee) => fee.length <= 10 && /^\d+(\.\d+)?$/.test(fee) && Number(fee) <= 100,
    TRADING_FEE_MESSAGE,
  );

export const TOKEN_AMOUNT_MESSAGE = "must be a whole number of token units, at most the supply";

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
  tradingFee: tradingFeeSchema.default("0.25"),
  /** The deployer's own first buy, BNB. */
  preSale: bnbAmountSchema.default("0"),
  tag: z.enum(TOKEN_TAGS).default("Meme"),
  /** Present for a tax token (create page "Token type: Tax token"), absent for a standard one. */
  tokenTaxInfo: tokenTaxInfoSchema.optional(),
});
export type TokenInfo = z.infer<typeof tokenInfoSchema>;

/** The longest delayed-bundle delay: one hour (a timer past 2^31-1 ms would fire at once). */
export const MAX_DELAY_SECONDS = 3600;

export const DELAY_MESSAGES = {
  tooLong: `Delay must be at most ${MAX_DELAY_SECONDS} seconds (1 hour)`,
  order: "Minimum delay must not exceed maximum delay",
} as const;

/** A delay in whole seconds, 0..MAX_DELAY_SECONDS. */
const delaySchema = z
  .number()
  .int("Delay must be a whole number of seconds")
  .min(0, "Delay cannot be negative")
  .max(MAX_DELAY_SECONDS, DELAY_MESSAGES.tooLong)
  .default(0);

export const keyedWalletSchema = z.object({ address: addressSchema, privateKey: privateKeySchema });

/** The wallet configuration's fields, before the rules between them. */
const walletConfigFields = z.object({
  wallets: z
    .array(
      keyedWalletSchema.extend({
        buyValue: bnbAmountSchema.default("0"),
        /**
         * Tokens the buy was quoted to get in the bundle's order (18-decimal units), if known:
         * at most 28 digits, since the whole supply (1B tokens) is 1e27 units.
         */
        tokenAmount: z
          .string()
          .regex(/^\d{1,28}$/, TOKEN_AMOUNT_MESSAGE)
          .optional(),
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
      else if (tip !== "" && !bnbAmountSchema.safeParse(tip).success)
        context.addIssue({ code: "custom", message: `Tip ${BNB_AMOUNT_LIMIT_MESSAGE}` });
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
  minDelay: delaySchema,
  maxDelay: delaySchema,
});

export const walletConfigSchema = walletConfigFields.refine(
  (config) => config.minDelay <= config.maxDelay,
  { message: DELAY_MESSAGES.order, path: ["minDelay"] },
);
export type WalletConfig = z.infer<typeof walletConfigSchema>;

/**
 * The create page's labels for a draft's fields (SPEC §2 Launch page): a 400 reads "Wallet 3
 * buy must be a BNB amount below 1,000,000,000", never "walletConfig.wallets.2.buyValue: ...".
 */
export const DRAFT_LABELS = {
  tokenInfo: "Token info",
  "tokenInfo.name": "Token name",
  "tokenInfo.symbol": "Ticker",
  "tokenInfo.description": "Description",
  "tokenInfo.image": "Logo",
  "tokenInfo.twitter": "Twitter",
  "tokenInfo.telegram": "Telegram",
  "tokenInfo.website": "Website",
  "tokenInfo.tradingFee": "Trading fee",
  "tokenInfo.preSale": "Deployer buy",
  "tokenInfo.tag": "Tag",
  "tokenInfo.tokenTaxInfo": "Tax token",
  ...Object.fromEntries(
    Object.entries(TAX_LABELS).map(([key, label]) => [`tokenInfo.tokenTaxInfo.${key}`, label]),
  ),
  deployerWallet: "Deployer wallet",
  "deployerWallet.address": "Deployer address",
  "deployerWallet.privateKey": "Deployer private key",
  walletConfig: "Bundle wallets",
  "walletConfig.wallets": "Bundle wallets",
  "walletConfig.wallets.#": "Wallet {row}",
  "walletConfig.wallets.#.address": "Wallet {row} address",
  "walletConfig.wallets.#.privateKey": "Wallet {row} private key",
  "walletConfig.wallets.#.buyValue": "Wallet {row} buy",
  "walletConfig.wallets.#.tokenAmount": "Wallet {row} token amount",
  "walletConfig.tip": "Tip",
  "walletConfig.tipPayer": "Tip payer",
  "walletConfig.tipPayer.address": "Tip payer address",
  "walletConfig.tipPayer.privateKey": "Tip payer private key",
  "walletConfig.buyAmount": "Buy range",
  "walletConfig.buyAmount.min": "Min buy",
  "walletConfig.buyAmount.max": "Max buy",
  "walletConfig.delaySnipeAddress": "Sniper address",
  "walletConfig.minDelay": "Delay",
  "walletConfig.maxDelay": "Delay",
} as const;

export const draftInputSchema = labelled(
  z.object({
    tokenInfo: tokenInfoSchema,
    deployerWallet: keyedWalletSchema.optional(),
    walletConfig: walletConfigSchema.optional(),
  }),
  DRAFT_LABELS,
);
export type DraftInput = z.input<typeof draftInputSchema>;

/**
 * A refund of a payment that came late, twice or too large; `held` when it is kept at the
 * payment address instead (it came from one of our own wallets, or could not be delivered),
 * with why in `reason`.
 */
export const refundSchema = z.object({
  to: addressSchema,
  amount: bnbValueSchema,
  reason: z.string(),
  txHash: z.string().nullable(),
  status: z.enum(["pending", "sent", "failed", "held"]),
});

export const draftSchema = z.object({
  _id: z.string(),
  status: z.enum(DRAFT_STATUSES),
  tokenInfo: tokenInfoSchema,
  deployerWallet: keyedWalletSchema.nullable(),
  walletConfig: walletConfigSchema,
  paymentAddress: addressSchema.nullable(),
  paymentAmount: bnbValueSchema.nullable(),
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
      /** The token's page on the launchpad (four.meme on BSC); null where there is none. */
      launchpadUrl: z.string().nullable().default(null),
    })
    .nullable(),
  /**
   * Why the draft cannot be paid for or launched yet, in SPEC §5's words ("Please upload a
   * logo"), or null when it is ready: the server's `launchReadinessError` on what it stores.
   */
  launchProblem: z.string().nullable(),
});
export type Draft = z.infer<typeof draftSchema>;

export const draftIdParamsSchema = z.object({ id: z.string().uuid("Draft not found") });

export const createDraftRoute = defineRoute({
  method: "POST",
  path: "/api/draft/create",
  access: "user",
  secret: true,
  body: draftInputSchema,
  response: z.object({ success: z.literal(true), draft: draftSchema, draftId: z.string() }),
});

const addressOnlySchema = z.object({ address: addressSchema });

/**
 * A draft as the drafts list shows it: no private key anywhere (deployer, wallets and tip
 * payer by address only), and the logo by URL instead of inline. `GET /api/draft/:id` has
 * the whole draft, keys included, for its owner.
 */
export const draftSummarySchema = draftSchema.extend({
  tokenInfo: tokenInfoSchema.omit({ image: true }).extend({
    /** The logo at a public, cacheable URL (`draftLogoPath`), or null without a logo. */
    imageUrl: z.string().nullable(),
  }),
  deployerWallet: addressOnlySchema.nullable(),
  walletConfig: walletConfigFields.omit({ wallets: true, tipPayer: true }).extend({
    wallets: z.array(
      addressOnlySchema.extend({
        buyValue: bnbAmountSchema.default("0"),
        tokenAmount: z.string().optional(),
      }),
    ),
    tipPayer: addressOnlySchema.optional(),
  }),
});
export type DraftSummary = z.infer<typeof draftSummarySchema>;

/** Drafts per page of the list (SPEC §9: "Drafts page 9"). */
export const DRAFTS_PAGE_SIZE = 9;
const MAX_DRAFTS_PAGE = 100_000;
const PAGE_MESSAGE = "page must be a whole number from 1 up";

/** `?page=N`: 1-based, 1 when absent. */
const listDraftsQuerySchema = z.object({
  page: z
    .string({ error: PAGE_MESSAGE })
    .regex(/^\d{1,9}$/, PAGE_MESSAGE)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, PAGE_MESSAGE)
        .max(MAX_DRAFTS_PAGE, `page must be at most ${MAX_DRAFTS_PAGE}`),
    )
    .default(1),
});

export const listDraftsRoute = defineRoute({
  method: "GET",
  path: "/api/draft/list",
  access: "user",
  query: listDraftsQuerySchema,
  body: undefined,
  response: z.object({
    success: z.literal(true),
    /** The page's drafts, newest change first. */
    drafts: z.array(draftSummarySchema),
    /** Every draft the list shows, across pages. */
    total: z.number().int().min(0),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
  }),
});

/**
 * A draft's logo, by the SHA-256 (hex) of its data URL: the image bytes, cacheable for a
 * year. Public, since an `<img>` cannot send the access key; the hash is the capability.
 */
export const draftLogoRoute = defineRoute({
  method: "GET",
  path: "/api/draft/logo/:hash",
  access: "public",
  params: z.object({ hash: z.string().max(200) }),
  body: undefined,
  response: z.custom<Uint8Array>(),
});

export const draftLogoPath = (hash: string): string => draftLogoRoute.path.replace(":hash", hash);

export const getDraftRoute = defineRoute({
  method: "GET",
  path: "/api/draft/:id",
  access: "user",
  secret: true,
  params: draftIdParamsSchema,
  owned: [{ in: "params", field: "id", object: "draft" }],
  body: undefined,
  response: z.object({ success: z.literal(true), draft: draftSchema }),
});

export const updateDraftRoute = defineRoute({
  method: "PUT",
  path: "/api/draft/:id",
  access: "user",
  secret: true,
  params: draftIdParamsSchema,
  owned: [{ in: "params", field: "id", object: "draft" }],
  body: draftInputSchema,
  response: z.object({ success: z.literal(true), draft: draftSchema, draftId: z.string() }),
});

export const deleteDraftRoute = defineRoute({
  method: "DELETE",
  path: "/api/draft/:id",
  access: "user",
  params: draftIdParamsSchema,
  owned: [{ in: "params", field: "id", object: "draft" }],
  body: undefined,
  response: z.object({ success: z.literal(true) }),
});

export const executeDraftRoute = defineRoute({
  method: "POST",
  path: "/api/draft/:id/execute",
  access: "user",
  movesMoney: true,
  params: draftIdParamsSchema,
  owned: [{ in: "params", field: "id", object: "draft" }],
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
  movesMoney: true,
  body: z.object({ data: z.string().min(1).max(3_000_000) }),
  response: z.object({ success: z.literal(true), message: z.string() }),
});
