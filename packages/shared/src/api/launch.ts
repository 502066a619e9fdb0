import { z } from "zod";
import { defineRoute } from "./common.ts";
import { draftIdParamsSchema } from "./drafts.ts";
import { labelled } from "./field-labels.ts";
import { addressSchema, bnbAmountSchema, bnbValueSchema, MAX_BUNDLE_WALLETS } from "./money.ts";

/** A share of the total supply (1B tokens) in percent, up to 4 decimals, e.g. "1.2345". */
const percentSchema = z.string();
/** Token units (18 decimals) as a whole-number string. */
const tokenUnitsSchema = z.string();

/** What the bundle's buys do to the curve, quoted in the order the chain will run them. */
export const curveOutlookSchema = z.object({
  /** A buy in the bundle fills the curve: the token graduates to the DEX in the launch block. */
  graduates: z.boolean(),
  /** A buy comes after the curve is sold out: the launch would be refused as planned. */
  soldOut: z.boolean(),
  /** What to tell the user about the above or about a buy too small to get tokens; else null. */
  warning: z.string().nullable(),
});
export type CurveOutlook = z.infer<typeof curveOutlookSchema>;

export const FUNDING_ROLES = ["deployer", "tip payer", "bundle", "delayed"] as const;

/**
 * A launch as it will run: each buy quoted in sequence (the creator's buy inside the create,
 * then every bundle wallet in order; the delayed sniper after the bundle), what each wallet
 * must hold (its buy plus the gas of its transaction at the gas price the launch uses), and
 * the totals a user pays.
 */
export const launchPlanSchema = z.object({
  creator: z.object({
    address: addressSchema.nullable(),
    /** The creator's own buy, sent with the create (preSale), BNB. */
    buyValue: bnbValueSchema,
    /**
     * The launchpad's trading fee on that buy, sent with the create on top of it
     * (preSale × tradingFeeRate / 10000, four.meme's create guide).
     */
    buyFee: bnbValueSchema,
    tokenAmount: tokenUnitsSchema,
    sharePercent: percentSchema,
    /** The launchpad's creation fee, sent with the create. */
    creationFee: bnbValueSchema,
    /** Gas of the create transaction. */
    gas: bnbValueSchema,
  }),
  wallets: z.array(
    z.object({
      address: addressSchema,
      buyValue: bnbValueSchema,
      tokenAmount: tokenUnitsSchema,
      sharePercent: percentSchema,
      /** Gas of this wallet's buy (more for the buy that fills the curve and graduates it). */
      gas: bnbValueSchema,
      /** The bundle that carries the buy: 0 is the create's (same block); null when delayed. */
      bundle: z.number().int().nullable(),
      /** The delayed-bundle sniper: it buys after the launch, on its own. */
      delayed: z.boolean(),
    }),
  ),
  tip: z.object({
    /** Who pays the tips (the deployer when the draft names no tip payer). */
    payer: addressSchema.nullable(),
    perBundle: bnbValueSchema,
    bundles: z.number().int(),
    /** Gas of the tip transfers. */
    gas: bnbValueSchema,
  }),
  /** What each distinct address must hold before executing: its buys, fees, tips and gas summed. */
  funding: z.array(
    z.object({
      address: addressSchema,
      roles: z.array(z.enum(FUNDING_ROLES)),
      required: bnbValueSchema,
    }),
  ),
  totals: z.object({
    /** The bundle wallets' buys (the delayed sniper's excluded). */
    bundleBuys: bnbValueSchema,
    creatorBuy: bnbValueSchema,
    /** The launchpad's trading fee on the creator's buy, paid with the create. */
    creatorBuyFee: bnbValueSchema,
    delayedBuy: bnbValueSchema,
    /** Every bundle's tip. */
    tips: bnbValueSchema,
    /** Every transaction's gas. */
    gas: bnbValueSchema,
    creationFee: bnbValueSchema,
    /** This platform's launch fee (SPEC §9), paid from outside before executing. */
    launchFee: bnbValueSchema,
    launchFeePaid: z.boolean(),
    /** All of the above. */
    total: bnbValueSchema,
    bundleSharePercent: percentSchema,
    creatorSharePercent: percentSchema,
    delayedSharePercent: percentSchema,
  }),
  /** What the estimate used: the gas price the launch pays and the gas limit of each kind of tx. */
  costs: z.object({
    /** wei */
    gasPrice: z.string(),
    gasPriceGwei: z.string(),
    gas: z.object({
      create: z.number().int(),
      buy: z.number().int(),
      graduatingBuy: z.number().int(),
      tip: z.number().int(),
    }),
    creationFee: bnbValueSchema,
    /** Transactions one bundle holds (create + buys + tip); more wallets are split. */
    maxTxsPerBundle: z.number().int(),
  }),
  curve: curveOutlookSchema,
});
export type LaunchPlan = z.infer<typeof launchPlanSchema>;

/** The plan of a launch that is not saved yet (the create page's funding and summary). */
export const planLaunchRoute = defineRoute({
  method: "POST",
  path: "/api/bundle/plan",
  access: "user",
  body: labelled(
    z.object({
      deployerAddress: addressSchema.optional(),
      /** Omitted: the deployer pays the tips. */
      tipPayerAddress: addressSchema.optional(),
      creatorBuy: bnbAmountSchema.default("0"),
      tip: bnbAmountSchema.default("0"),
      wallets: z
        .array(z.object({ address: addressSchema, buyValue: bnbAmountSchema }))
        .max(MAX_BUNDLE_WALLETS),
      /** The delayed-bundle sniper (one of `wallets`): held back from the bundle. */
      delaySnipeAddress: addressSchema.optional(),
      /** A tax token: its create deploys the bigger TaxToken, budgeted more gas. */
      taxToken: z.boolean().default(false),
    }),
    {
      deployerAddress: "Deployer address",
      tipPayerAddress: "Tip payer address",
      creatorBuy: "Deployer buy",
      tip: "Tip",
      wallets: "Bundle wallets",
      "wallets.#.address": "Wallet {row} address",
      "wallets.#.buyValue": "Wallet {row} buy",
      delaySnipeAddress: "Sniper address",
    },
  ),
  response: z.object({ success: z.literal(true), plan: launchPlanSchema }),
});

/** The plan of a saved draft, for the execute confirmation. */
export const draftSummaryRoute = defineRoute({
  method: "GET",
  path: "/api/draft/:id/summary",
  access: "user",
  params: draftIdParamsSchema,
  owned: [{ in: "params", field: "id", object: "draft" }],
  body: undefined,
  response: z.object({ success: z.literal(true), plan: launchPlanSchema }),
});
