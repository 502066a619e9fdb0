import { z } from "zod";
import { ADMIN_API } from "./admin.ts";
import { defineRoute } from "./common.ts";
import { bnbValueSchema } from "./money.ts";

export const newsItemSchema = z.object({
  id: z.string(),
  content: z.string(),
  label: z.string(),
  labelColor: z.string(),
  date: z.string(),
});
export type NewsItem = z.infer<typeof newsItemSchema>;

export const getNewsRoute = defineRoute({
  method: "GET",
  path: "/api/news",
  access: "public",
  body: undefined,
  response: z.object({ success: z.literal(true), news: z.array(newsItemSchema) }),
});

/** News as admins see it: hidden items too. */
export const adminNewsItemSchema = newsItemSchema.extend({
  /** Shown in the banner (false: hidden by an admin). */
  active: z.boolean(),
});
export type AdminNewsItem = z.infer<typeof adminNewsItemSchema>;

export const NEWS_CONTENT_MAX = 500;
export const NEWS_LABEL_MAX = 20;

/** What an admin writes: the text, its label and the label's color (a hex color, #rrggbb). */
export const newsInputSchema = z.object({
  content: z
    .string({ error: "Please enter the news text" })
    .trim()
    .min(1, "Please enter the news text")
    .max(NEWS_CONTENT_MAX, `The news text must be at most ${NEWS_CONTENT_MAX} characters`),
  label: z
    .string({ error: "Please enter a label" })
    .trim()
    .min(1, "Please enter a label")
    .max(NEWS_LABEL_MAX, `The label must be at most ${NEWS_LABEL_MAX} characters`),
  labelColor: z
    .string({ error: "The label color must be a hex color like #f0b90b" })
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/, "The label color must be a hex color like #f0b90b"),
});
export type NewsInput = z.input<typeof newsInputSchema>;

const newsAnswer = z.object({
  success: z.literal(true),
  item: adminNewsItemSchema,
  message: z.string(),
});

const newsIdParams = z.object({ id: z.string().min(1).max(100) });

/** Every news item, shown or hidden, newest first (admins). */
export const adminNewsRoute = defineRoute({
  method: "GET",
  path: `${ADMIN_API}/news`,
  access: "admin",
  body: undefined,
  response: z.object({ success: z.literal(true), news: z.array(adminNewsItemSchema) }),
});

/** Publishes an item to every visitor's banner; in the audit log. */
export const publishNewsRoute = defineRoute({
  method: "POST",
  path: `${ADMIN_API}/news`,
  access: "admin",
  body: newsInputSchema,
  response: newsAnswer,
});

/** Changes an item's text, label or color; in the audit log. */
export const editNewsRoute = defineRoute({
  method: "PUT",
  path: `${ADMIN_API}/news/:id`,
  access: "admin",
  params: newsIdParams,
  body: newsInputSchema,
  response: newsAnswer,
});

/** Hides an item from the banner, or shows it again; in the audit log. */
export const newsVisibilityRoute = defineRoute({
  method: "PUT",
  path: `${ADMIN_API}/news/:id/visibility`,
  access: "admin",
  params: newsIdParams,
  body: z.object({ active: z.boolean({ error: "The visibility must be true or false" }) }),
  response: newsAnswer,
});

export const chainNameSchema = z.enum(["local", "bsc-testnet", "bsc"]);
export type ChainName = z.infer<typeof chainNameSchema>;

/** The deployment itself: chain, explorer, faucet, footer links. */
export const deploymentConfigSchema = z.object({
  chain: chainNameSchema,
  chainId: z.number(),
  /** Block-explorer base, e.g. https://bscscan.com; null on the local chain. */
  explorerUrl: z.string().nullable(),
  faucet: z.boolean(),
  links: z.object({ social: z.string(), group: z.string(), docs: z.string() }),
});
export type DeploymentConfig = z.infer<typeof deploymentConfigSchema>;

/** SPEC §3 Config's defaults, in USD (KEY_PRICE_USD, REFERRAL_DISCOUNT_USD, REFERRAL_REWARD_USD). */
export const KEY_PRICING_DEFAULTS = {
  price: 4,
  referralDiscount: 0.6,
  referralReward: 0.4,
} as const;

/**
 * What an access key costs and what a referral brings (SPEC §3 Config, with its units): a key
 * costs `price`; a buyer with a referral code pays `price − referralDiscount`; the code's owner
 * earns `referralReward` per key bought with it (in BNB at that payment's own rate), and
 * `referralLaunchFeeShare` (referralReward / price) of every launch fee a referred user pays.
 */
export const pricingConfigSchema = z.object({
  price: z.number(),
  referralDiscount: z.number(),
  referralReward: z.number(),
  priceCurrency: z.literal("USD"),
  /** A share of the launch fee, 0..1 (0.1 with the defaults). */
  referralLaunchFeeShare: z.number().min(0).max(1),
  /** The launch fee, BNB. */
  launchFee: bnbValueSchema,
});
export type PricingConfig = z.infer<typeof pricingConfigSchema>;

/**
 * A bundle builder as the create page explains it: its name and the transactions one bundle to
 * it holds (never its endpoint or key).
 */
export const publicBuilderSchema = z.object({
  /** "48club", "blockrazor", "nodereal"; "local" on the local chain. */
  name: z.string(),
  maxTxs: z.number().int(),
  /** 48 Club with a 48 Soul Point key: its bundles carry `48spSign`, so it takes its tier. */
  signed: z.boolean(),
});
export type PublicBuilder = z.infer<typeof publicBuilderSchema>;

/** What the web app needs to know about the deployment, served without auth. */
export const publicConfigSchema = deploymentConfigSchema.extend(pricingConfigSchema.shape).extend({
  /** The builders launches are sent to: how many buys share the create's block. */
  builders: z.array(publicBuilderSchema),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

export const getConfigRoute = defineRoute({
  method: "GET",
  path: "/api/config",
  access: "public",
  body: undefined,
  response: z.object({ success: z.literal(true), config: publicConfigSchema }),
});

export const healthRoute = defineRoute({
  method: "GET",
  path: "/api/health",
  access: "public",
  body: undefined,
  response: z.object({ ok: z.literal(true), block: z.number().nullable() }),
});
