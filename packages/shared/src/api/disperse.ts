import { z } from "zod";
import { defineRoute } from "./common.ts";
import { labelled } from "./field-labels.ts";
import { addressSchema, bnbAmountSchema, bnbValueSchema } from "./money.ts";

/** Destinations one dispersal may pay. */
export const MAX_DISPERSAL_WALLETS = 500;
/** Intermediate wallets per destination with anti bubblemaps, and the hops between them (SPEC §9). */
export const ANTI_BUBBLEMAPS_WALLETS = 10;
export const ANTI_BUBBLEMAPS_HOPS = 9;
/** How long a dispersal waits for its funding, by default. */
export const DISPERSAL_WINDOW_SECONDS = 30 * 60;

export const DISPERSAL_STATUSES = [
  "pending",
  "sending",
  "processing",
  "completed",
  "partial",
  "failed",
  "expired",
  "cancelled",
] as const;
export type DispersalStatus = (typeof DISPERSAL_STATUSES)[number];

/** The dispersal has stopped moving; nothing more will happen to its chains. */
export const isFinalDispersalStatus = (status: DispersalStatus): boolean =>
  status !== "pending" && status !== "sending" && status !== "processing";

export const dispersalChainSchema = z.object({
  finalWallet: addressSchema,
  /** What the final wallet receives, BNB. */
  amount: bnbValueSchema,
  /** Hops done between the intermediate wallets, 0..9 (0 without anti bubblemaps). */
  currentHop: z.number().int().min(0),
  /** The final wallet received its amount. */
  completed: z.boolean(),
  /** The chain could not deliver; what it held went back to the funder. */
  failed: z.boolean(),
});
export type DispersalChain = z.infer<typeof dispersalChainSchema>;

/**
 * Money the dispersal sent back: a payment not owed (refund) or a chain's stuck amount
 * (return); `held` (no transaction) when a payment from one of our own wallets stays at the
 * receiver instead, with why in `reason`.
 */
export const dispersalRefundSchema = z.object({
  kind: z.enum(["refund", "return"]),
  to: addressSchema,
  amount: bnbValueSchema,
  reason: z.string(),
  txHash: z.string().nullable(),
  status: z.enum(["signed", "sent", "confirmed", "failed", "held"]),
});
export type DispersalRefund = z.infer<typeof dispersalRefundSchema>;

export const dispersalSchema = z.object({
  /** The dispersal's id is its receiver address (kept by the web under `dispersal-id`). */
  dispersalId: addressSchema,
  receiver: addressSchema,
  /** What the receiver must be sent, BNB: every amount plus the exact gas of every transfer. */
  amount: bnbValueSchema,
  /** Minutes left to fund it (0 once expired or funded). */
  expiresIn: z.number().int().min(0),
  expiresAt: z.string(),
  status: z.enum(DISPERSAL_STATUSES),
  antiBubblemaps: z.boolean(),
  chains: z.array(dispersalChainSchema),
  /** Who funded it (refunds and returns go there); null until funded. */
  funder: addressSchema.nullable(),
  refunds: z.array(dispersalRefundSchema),
});
export type Dispersal = z.infer<typeof dispersalSchema>;

const dispersalResponse = dispersalSchema.extend({
  success: z.literal(true),
  message: z.string(),
});

/**
 * The disperser grid's labels: a 400 names the row ("Wallet 3 amount must be above 0") and
 * carries `field` ("amounts.2") and `row` (3) for the grid to mark (see badRequestResponseSchema).
 */
export const DISPERSAL_LABELS = {
  wallets: "Wallets",
  "wallets.#": "Wallet {row} address",
  amounts: "Amounts",
  "amounts.#": "Wallet {row} amount",
  antiBubblemaps: "Anti Bubblemaps",
} as const;

export const createDispersalRoute = defineRoute({
  method: "POST",
  path: "/api/wallets/disperse",
  access: "user",
  movesMoney: true,
  body: labelled(
    z
      .object({
        wallets: z
          .array(addressSchema)
          .min(1, "Please add some wallets.")
          .max(MAX_DISPERSAL_WALLETS, `At most ${MAX_DISPERSAL_WALLETS} wallets per dispersal`),
        amounts: z
          .array(bnbAmountSchema)
          .min(1, "Please add some amounts.")
          .max(MAX_DISPERSAL_WALLETS, `At most ${MAX_DISPERSAL_WALLETS} amounts per dispersal`),
        antiBubblemaps: z.boolean().default(true),
      })
      .superRefine((body, ctx) => {
        if (body.wallets.length !== body.amounts.length) {
          ctx.addIssue({
            code: "custom",
            path: ["amounts"],
            message: `${body.wallets.length} wallets but ${body.amounts.length} amounts`,
          });
        }
        const seen = new Map<string, number>();
        body.wallets.forEach((wallet, i) => {
          const first = seen.get(wallet.toLowerCase());
          if (first !== undefined) {
            ctx.addIssue({
              code: "custom",
              path: ["wallets", i],
              message: `${wallet} is listed twice (rows ${first + 1} and ${i + 1})`,
            });
          }
          seen.set(wallet.toLowerCase(), i);
        });
        body.amounts.forEach((amount, i) => {
          if (/^0+(\.0+)?$/.test(amount)) {
            ctx.addIssue({
              code: "custom",
              path: ["amounts", i],
              message: "must be above 0",
            });
          }
        });
      }),
    DISPERSAL_LABELS,
  ),
  response: dispersalResponse,
});
export type CreateDispersalBody = z.input<typeof createDispersalRoute.body>;

export const dispersalStatusRoute = defineRoute({
  method: "GET",
  path: "/api/wallets/disperse/status",
  access: "user",
  query: z.object({ dispersalId: addressSchema }),
  owned: [{ in: "query", field: "dispersalId", object: "dispersal" }],
  body: undefined,
  response: dispersalResponse,
});
export const dispersalStatusQuerySchema = z.object({ dispersalId: addressSchema });

export const cancelDispersalRoute = defineRoute({
  method: "POST",
  path: "/api/wallets/disperse/cancel",
  access: "user",
  movesMoney: true,
  owned: [{ in: "body", field: "dispersalId", object: "dispersal" }],
  body: z.object({ dispersalId: addressSchema }),
  response: z.object({ success: z.literal(true), message: z.string() }),
});
