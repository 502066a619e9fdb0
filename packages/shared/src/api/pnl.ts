import { z } from "zod";
import { defineRoute } from "./common.ts";
import { labelled } from "./field-labels.ts";
import { addressSchema } from "./money.ts";

/** Wei as a decimal string; P&L figures (realized, unrealized) may be negative. */
const signedWeiSchema = z.string().regex(/^-?\d+$/);
/** Wei or token units: a whole, non-negative decimal string. */
const weiSchema = z.string().regex(/^\d+$/);

/** What a ledger line is: costs, proceeds, or (`opening`) a wallet's balance before the launch. */
export const PNL_KINDS = [
  "create-fee",
  "dev-buy",
  "buy",
  "tip",
  "gas",
  "trading-fee",
  "sale",
  "empty",
  "dispersal-cost",
  "launch-fee",
  "opening",
  "funding",
  "tax",
] as const;
export type PnlKind = (typeof PNL_KINDS)[number];

/**
 * Kinds that are costs. `sale` is proceeds; `empty` (BNB a wallet sent back to the user),
 * `opening` (a wallet's balance before the launch) and `funding` (BNB the user's dispersal moved
 * to a wallet after the launch) are neither: they move the user's own money, and counting an
 * empty as proceeds would count its sales twice.
 */
export const PNL_COST_KINDS: readonly PnlKind[] = [
  "create-fee",
  "dev-buy",
  "buy",
  "tip",
  "gas",
  "trading-fee",
  "dispersal-cost",
  "launch-fee",
];

/**
 * Who a ledger line belongs to: the developer (deployer) wallet and the bundle's wallets have
 * rows of their own; the rest (`tip-payer`, `deployer` for the creation fee, `platform` for the
 * launch fee, `dispersal` for the disperser's hops) are shared lines of the totals.
 */
export const PNL_ROLES = [
  "developer",
  "bundle",
  "deployer",
  "tip-payer",
  "platform",
  "dispersal",
] as const;
export type PnlRole = (typeof PNL_ROLES)[number];

/** The bundle's whole figures, wei. */
export const pnlTotalsSchema = z.object({
  /** Every cost: buys, fees, gas, tips, the creation and launch fees, dispersal costs. */
  costWei: weiSchema,
  /** Every sale's proceeds (before its trading fee, which is a cost). */
  proceedsWei: weiSchema,
  /** BNB the wallets' empties sent back to the user (their own money: not proceeds). */
  emptiedWei: weiSchema,
  /** Proceeds less the average cost of the tokens sold. */
  realizedWei: signedWeiSchema,
  /** The curve's (or the pool's) price × every wallet's tokens. */
  markWei: weiSchema,
  /** What selling every wallet's tokens in one block would return now (one simulation). */
  exitWei: weiSchema,
  /** exitWei less the average cost of the tokens still held. */
  unrealizedExitWei: signedWeiSchema,
});
export type PnlTotals = z.infer<typeof pnlTotalsSchema>;

/** One wallet's own figures: only what it paid and received itself. */
export const pnlWalletSchema = z.object({
  address: addressSchema,
  role: z.enum(["developer", "bundle"]),
  costWei: weiSchema,
  proceedsWei: weiSchema,
  /** BNB its empties sent out. */
  emptiedWei: weiSchema,
  /** Tokens held now (smallest units). */
  tokens: weiSchema,
  /** What this wallet's sale returns in the one-block exit simulation. */
  exitWei: weiSchema,
  /**
   * Tokens a tax token's tax took from this wallet's DEX sales (tax guide §4: `amount ×
   * feeRate / 10000` of each sale, kept by the token); "0" for a plain token.
   */
  taxTokens: weiSchema.default("0"),
});
export type PnlWallet = z.infer<typeof pnlWalletSchema>;

/** A cost paid for the bundle by someone other than its wallets (creation fee, tips, ...). */
export const pnlLineSchema = z.object({
  kind: z.enum(PNL_KINDS),
  role: z.enum(PNL_ROLES),
  /** Who paid it; null for a line that adds up many payers (the dispersal's hop wallets). */
  address: addressSchema.nullable(),
  wei: weiSchema,
  /** The transaction it comes from; null when the line adds up several. */
  txHash: z.string().nullable(),
  /** The (first) block it was paid in. */
  block: z.string(),
});
export type PnlLine = z.infer<typeof pnlLineSchema>;

/** A wallet whose chain balance differs from what the ledger says it should hold. */
export const pnlDriftSchema = z.object({
  address: addressSchema,
  /** What the ledger says it holds: its balance before the launch − costs + sales − empties. */
  ledgerWei: signedWeiSchema,
  /** The chain's balance now. */
  chainWei: weiSchema,
  /** |chain − ledger| as a percent of the ledger's figure (of 1 wei when it is 0), two decimals. */
  percent: z.number(),
  /**
   * A transaction of ours for this wallet is on its way, or landed and not in the ledger yet
   * (the ledger takes a transaction once it is confirmed): its drift is not judged until then.
   * The server always says; optional for clients built before it did.
   */
  pending: z.boolean().optional(),
  /** Over 0.1% and not pending: a transfer the app did not make. */
  flagged: z.boolean(),
});
export type PnlDrift = z.infer<typeof pnlDriftSchema>;

const pnlQuery = labelled(z.object({ address: addressSchema }), { address: "Token address" });

/** `GET /bundle/pnl?address=`: a launched bundle's cost, proceeds and worth, from its ledger. */
export const bundlePnlRoute = defineRoute({
  method: "GET",
  path: "/api/bundle/pnl",
  access: "user",
  query: pnlQuery,
  owned: [{ in: "query", field: "address", object: "bundle" }],
  body: undefined,
  response: z.object({
    success: z.literal(true),
    totals: pnlTotalsSchema,
    wallets: z.array(pnlWalletSchema),
    /** The shared cost lines: creation fee, tips, launch fee, dispersal costs. */
    lines: z.array(pnlLineSchema),
    /** Every wallet's reconciliation; `flagged` ones drifted over 0.1%. */
    drift: z.array(pnlDriftSchema),
    /** USD per BNB, as the app reads it elsewhere (null when the price is unavailable). */
    bnbUsd: z.number().nullable(),
    /** The block the exit value and balances were read at. */
    asOfBlock: z.string(),
    /**
     * A type-5 tax token's tax (tax guide §4): its rate in basis points, the launch's
     * recipient address and the WBNB it and the holders have earned; null for a plain token.
     */
    taxToken: z
      .object({
        feeRate: z.number(),
        recipient: addressSchema,
        recipientEarnedWei: weiSchema,
        holdersEarnedWei: weiSchema,
      })
      .nullable()
      .default(null),
  }),
});

/** One point of the P&L chart: the running figures after a ledger event. */
export const pnlPointSchema = z.object({
  block: z.string(),
  /** ISO time of the block. */
  at: z.string(),
  costWei: weiSchema,
  proceedsWei: weiSchema,
  /** The exit value recorded when the event was appended (null when none was); the last point's is now's. */
  exitWei: weiSchema.nullable(),
});
export type PnlPoint = z.infer<typeof pnlPointSchema>;

/** `GET /bundle/pnl/history?address=`: the chart's points, a point per block with ledger events. */
export const bundlePnlHistoryRoute = defineRoute({
  method: "GET",
  path: "/api/bundle/pnl/history",
  access: "user",
  query: pnlQuery,
  owned: [{ in: "query", field: "address", object: "bundle" }],
  body: undefined,
  response: z.object({ success: z.literal(true), points: z.array(pnlPointSchema) }),
});

/**
 * `GET /bundle/pnl.csv?address=`: the ledger as CSV (text/csv; a header row, then one line per
 * entry: block, time, tx hash, log index, kind, role, wallet, wei, BNB, tokens).
 */
export const bundlePnlCsvRoute = defineRoute({
  method: "GET",
  path: "/api/bundle/pnl.csv",
  access: "user",
  query: pnlQuery,
  owned: [{ in: "query", field: "address", object: "bundle" }],
  body: undefined,
  response: z.string(),
});

/** The CSV's header row, in column order. */
export const PNL_CSV_COLUMNS = [
  "block",
  "time",
  "tx_hash",
  "log_index",
  "kind",
  "role",
  "wallet",
  "wei",
  "bnb",
  "tokens",
] as const;
