import { z } from "zod";
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

/** What the web app needs to know about the deployment, served without auth. */
export const publicConfigSchema = deploymentConfigSchema.extend(pricingConfigSchema.shape);
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
