import { z } from "zod";
import { defineRoute } from "./common.ts";
import { labelled } from "./field-labels.ts";
import { addressSchema, bnbValueSchema } from "./money.ts";
import { TX_HASH_PATTERN } from "./tx.ts";

/** Bundles per page of the wallet manager (SPEC §9). */
export const BUNDLES_PAGE_SIZE = 9;
/** Wallets one sell or empty may name (a bundle holds at most this many). */
export const MAX_SELL_WALLETS = 100;

/**
 * A token launched here and the wallets that bought it (SPEC §3 "Bundle"): the token's address
 * is the bundle's id. `image` and `tradeUrl` come from the launchpad's public token info (the
 * server's own on the local chain); `tradeUrl` is set once the token trades on the DEX.
 */
export const bundleSchema = z.object({
  address: addressSchema,
  ticker: z.string(),
  name: z.string(),
  /** The bundle's wallets (every wallet of the launched draft), in the draft's order. */
  wallets: z.array(addressSchema),
  walletCount: z.number().int().min(0),
  /** The developer (deployer) wallet, which may hold the creator's buy. */
  developer: addressSchema.nullable(),
  /** The logo at a cacheable URL, or null. */
  image: z.string().nullable(),
  /** Where the token trades once it graduated (DEX), else null. */
  tradeUrl: z.string().nullable(),
  /** The launchpad's page for the token (four.meme on BSC), or null where there is none. */
  launchpadUrl: z.string().nullable(),
  /** The token left the bonding curve and trades on the DEX. */
  graduated: z.boolean(),
  blockNumber: z.string(),
  createdAt: z.string(),
});
export type Bundle = z.infer<typeof bundleSchema>;

/** A whole number of the token's smallest units (18 decimals), as a decimal string. */
const unitsSchema = z.string().regex(/^\d+$/);

/** One wallet's balances (SPEC §3 "Wallet balance entry"). */
export const walletBalanceSchema = z.object({
  address: addressSchema,
  /** Tokens, for display: decimal with thousands separators ("1,234,567.89"). */
  tokenBalance: z.string(),
  /** Tokens in the smallest units, for arithmetic (percent sells, shares of supply). */
  tokenUnits: unitsSchema,
  /** BNB, a decimal string. */
  bnbBalance: bnbValueSchema,
});
export type WalletBalance = z.infer<typeof walletBalanceSchema>;

/** The wallet manager's labels: a 400 names the wallet by its row in the request. */
const BUNDLE_LABELS = {
  address: "Token address",
  amount: "Amount",
  wallets: "Wallets",
  "wallets.#": "Wallet {row}",
  receiver: "Receiver address",
  slippageBps: "Slippage",
  route: "Route",
} as const;

const bundleAddressQuery = labelled(z.object({ address: addressSchema }), {
  address: "Token address",
});

const listBundlesQuery = z.object({
  page: z
    .string()
    .regex(/^[1-9]\d{0,5}$/, "page must be a whole number from 1 up")
    .transform(Number)
    .optional(),
});

/** SPEC §7 `GET /auth/bundles`: the caller's launches, newest first, 9 a page. */
export const listBundlesRoute = defineRoute({
  method: "GET",
  path: "/api/auth/bundles",
  access: "user",
  query: listBundlesQuery,
  body: undefined,
  response: z.object({
    success: z.literal(true),
    bundles: z.array(bundleSchema),
    total: z.number().int().min(0),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
  }),
});

/**
 * SPEC §7 `GET /bundle/wallets/balances?address=`: every wallet's token and BNB balance and
 * the developer's, in one multicall; the bundle itself and the token's supply come along so
 * the detail page needs no other call.
 */
export const bundleBalancesRoute = defineRoute({
  method: "GET",
  path: "/api/bundle/wallets/balances",
  access: "user",
  query: bundleAddressQuery,
  owned: [{ in: "query", field: "address", object: "bundle" }],
  body: undefined,
  response: z.object({
    success: z.literal(true),
    message: z.string(),
    bundle: bundleSchema,
    /** The token's total supply in its smallest units (shares of supply are against it). */
    totalSupply: unitsSchema,
    balances: z.array(walletBalanceSchema),
    developerBalance: walletBalanceSchema.nullable(),
  }),
});

/** A sell amount: tokens (decimal, 18 places at most) or a percent of each wallet's balance. */
const sellAmountSchema = z
  .string()
  .trim()
  .regex(/^\d{1,28}(\.\d{1,18})?$/, "must be a positive number of tokens or a percent");

/**
 * Optional idempotency key of one click (a UUID the client makes per click): the same key again
 * answers the first request's transactions instead of sending new ones. Without it, the same
 * request for a wallet whose last transaction is not mined yet answers that one's.
 */
const requestIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8 to 64 letters, digits, - or _")
  .optional();

/** A sale's slippage in basis points: default 5%, from 0.1% to 50%. */
export const SELL_SLIPPAGE_BPS = { default: 500, min: 10, max: 5000 } as const;

/**
 * How a sale goes out: "bundle" (default), privately to the configured builders, the request's
 * sells in one block when they fit one bundle (consecutive blocks when split); "public", each
 * transaction broadcast to the node's public pool.
 */
export const SELL_ROUTES = ["bundle", "public"] as const;
export type SellRoute = (typeof SELL_ROUTES)[number];

const sellBody = {
  address: addressSchema,
  requestId: requestIdSchema,
  amount: sellAmountSchema,
  /** true: `amount` is a percent (0 < amount ≤ 100) of each wallet's balance. */
  isPercentage: z.boolean().default(false),
  /**
   * The floor: each sale reverts rather than fetch less than its simulated proceeds less this
   * many basis points (500 = 5%), taken on the gross curve quote on the curve (so 5% off what
   * the wallet gets too).
   */
  slippageBps: z
    .number()
    .int("must be a whole number of basis points")
    .min(SELL_SLIPPAGE_BPS.min, "must be at least 10 basis points (0.1%)")
    .max(SELL_SLIPPAGE_BPS.max, "must be at most 5000 basis points (50%)")
    .default(SELL_SLIPPAGE_BPS.default),
  route: z.enum(SELL_ROUTES).default("bundle"),
};

/** One transaction a sell sent, or the reason a wallet sent none. */
export const sellTransactionSchema = z.object({
  hash: z.string().regex(TX_HASH_PATTERN).nullable(),
  from: addressSchema,
  /** Tokens this transaction sells, for display ("12,345.6"); "0" for an approval. */
  amount: z.string(),
  kind: z.enum(["sell", "approve"]),
  /** pending: sent, poll `/bundle/tx/status`; failed: nothing was sent for this wallet. */
  status: z.enum(["pending", "failed"]),
  error: z.string().nullable(),
  /** How it went out (or would have): in a bundle to the builders, or to the public pool. */
  route: z.enum(SELL_ROUTES),
  /**
   * A sale's floor, said as the least it pays the wallet, BNB, after the launchpad's fee: it
   * reverts rather than pay less. (On the curve the floor signed, `minFunds`, is on the gross
   * curve quote, as four.meme's TokenManager2 compares it; this is that less the fee on it.)
   * null for an approval or a failure.
   */
  minOut: bnbValueSchema.nullable(),
  /**
   * What the simulation said the sale fetches, BNB (after the launchpad's fee); null for an
   * approval, a failure, or a sale answered again from an earlier request's record.
   */
  expectedOut: bnbValueSchema.nullable(),
});
export type SellTransaction = z.infer<typeof sellTransactionSchema>;

/** SPEC §7 `POST /bundle/wallets/sell`: sells from each selected wallet of a bundle. */
export const sellWalletsRoute = defineRoute({
  method: "POST",
  path: "/api/bundle/wallets/sell",
  access: "user",
  movesMoney: true,
  owned: [{ in: "body", field: "address", object: "bundle" }],
  body: labelled(
    z.object({
      ...sellBody,
      wallets: z
        .array(addressSchema)
        .min(1, "Select at least one wallet")
        .max(MAX_SELL_WALLETS, `At most ${MAX_SELL_WALLETS} wallets per sell`),
    }),
    BUNDLE_LABELS,
  ),
  response: z.object({
    success: z.literal(true),
    transactions: z.array(sellTransactionSchema),
    /** Tokens sold in all, for display. */
    totalTokens: z.string(),
    /**
     * Bundles the sells went out in, each for its own consecutive block (0 when public or
     * nothing was sent): more sells than a builder takes in one bundle are split.
     */
    bundles: z.number().int().min(0),
  }),
});

/** SPEC §7 `POST /bundle/developer/sell`: sells from the bundle's developer wallet. */
export const sellDeveloperRoute = defineRoute({
  method: "POST",
  path: "/api/bundle/developer/sell",
  access: "user",
  movesMoney: true,
  owned: [{ in: "body", field: "address", object: "bundle" }],
  body: labelled(z.object(sellBody), BUNDLE_LABELS),
  response: z.object({
    success: z.literal(true),
    transaction: sellTransactionSchema,
    /** An approval that had to go first, when one did. */
    transactions: z.array(sellTransactionSchema),
    /** Bundles the sell went out in: 1, or 0 when public or nothing was sent. */
    bundles: z.number().int().min(0),
  }),
});

/** SPEC §7 `POST /bundle/wallets/empty`: every selected wallet's BNB, minus exact gas, to one receiver. */
export const emptyWalletsRoute = defineRoute({
  method: "POST",
  path: "/api/bundle/wallets/empty",
  access: "user",
  movesMoney: true,
  owned: [{ in: "body", field: "address", object: "bundle" }],
  body: labelled(
    z.object({
      address: addressSchema,
      wallets: z
        .array(addressSchema)
        .min(1, "Select at least one wallet")
        .max(MAX_SELL_WALLETS, `At most ${MAX_SELL_WALLETS} wallets per empty`),
      receiver: addressSchema,
      requestId: requestIdSchema,
    }),
    BUNDLE_LABELS,
  ),
  response: z.object({
    success: z.literal(true),
    results: z.array(
      z.object({
        wallet: addressSchema,
        /** The transfer was mined: the wallet holds 0 wei now. */
        success: z.boolean(),
        hash: z.string().regex(TX_HASH_PATTERN).nullable(),
        /** BNB sent. */
        amount: bnbValueSchema,
        error: z.string().nullable(),
      }),
    ),
  }),
});
