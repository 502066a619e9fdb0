import { z } from "zod";
import { defineRoute } from "./common.ts";
import { labelled } from "./field-labels.ts";
import { curveOutlookSchema } from "./launch.ts";
import {
  addressSchema,
  bnbAmountSchema,
  bnbValueSchema,
  MAX_BUNDLE_WALLETS,
  privateKeySchema,
} from "./money.ts";

/** A buy range: BNB amounts, or percents of supply (converted to BNB with the curve's quote). */
const buyRange = {
  minBuyAmount: bnbAmountSchema,
  maxBuyAmount: bnbAmountSchema,
  isPercentage: z.boolean().default(false),
};

/** The create page's labels of the wallet generation and amount fields (SPEC §2 Bundle Wallets). */
export const BUY_RANGE_LABELS = {
  walletCount: "Number of wallets",
  minBuyAmount: "Min buy",
  maxBuyAmount: "Max buy",
  publicKey: "The browser's public key",
  wallets: "Wallets",
  "wallets.#": "Wallet {row} address",
  creatorBuy: "Deployer buy",
  delaySnipeAddress: "Sniper address",
} as const;

export const walletAmountSchema = z.object({
  address: addressSchema,
  /** BNB this wallet spends on its buy (fee included). */
  buyValue: bnbValueSchema,
  /**
   * Tokens the buy is quoted to get (18-decimal units, as a string), in the bundle's order: after
   * the creator's buy and every wallet before it; the delayed sniper after the whole bundle.
   */
  tokenAmount: z.string(),
});
export type WalletAmount = z.infer<typeof walletAmountSchema>;

export const generateWalletsRoute = defineRoute({
  method: "POST",
  path: "/api/wallets/gen",
  access: "user",
  secret: true,
  body: labelled(
    z.object({
      walletCount: z
        .number()
        .int()
        .min(1, "Please enter a valid number of wallets (minimum 1)")
        .max(MAX_BUNDLE_WALLETS),
      ...buyRange,
      /** The browser's RSA-2048 public key, SPKI, base64. */
      publicKey: z.string().min(100).max(2000),
    }),
    BUY_RANGE_LABELS,
  ),
  response: z.object({
    success: z.literal(true),
    message: z.string(),
    /** base64 of JSON {encryptedKey, iv, encryptedData}: RSA-OAEP(SHA-256)-wrapped AES-GCM key over JSON [{address, privateKey}]. */
    encryptedKeys: z.string(),
    wallets: z.array(
      z.object({ address: addressSchema, bnbAmount: walletAmountSchema.omit({ address: true }) }),
    ),
  }),
});

export const generateAmountsRoute = defineRoute({
  method: "POST",
  path: "/api/wallets/gen/amounts",
  access: "user",
  body: labelled(
    z.object({
      wallets: z.array(addressSchema).min(1).max(MAX_BUNDLE_WALLETS),
      ...buyRange,
      /** The creator's buy (preSale), BNB: it runs first, so every wallet is quoted after it. */
      creatorBuy: bnbAmountSchema.default("0"),
      /** The delayed-bundle sniper: quoted after the bundle, since it buys after the launch. */
      delaySnipeAddress: addressSchema.optional(),
    }),
    BUY_RANGE_LABELS,
  ),
  response: z.object({
    success: z.literal(true),
    message: z.string(),
    bnbAmounts: z.array(walletAmountSchema),
    curve: curveOutlookSchema,
  }),
});

export const walletBalancesRoute = defineRoute({
  method: "POST",
  path: "/api/wallets/balances",
  reads: true,
  access: "user",
  body: labelled(z.object({ addresses: z.array(addressSchema).min(1).max(500) }), {
    addresses: "Addresses",
    "addresses.#": "Address {row}",
  }),
  response: z.object({
    success: z.literal(true),
    message: z.string(),
    /** BNB balances as decimal strings, in the order and letter case asked. */
    balances: z.array(z.object({ address: addressSchema, balance: bnbValueSchema })),
    /**
     * The block the balances were read at (the oldest, when some are from the block before the
     * head: a poll is answered from the last block's values while the new block's read is on
     * its way); null when the chain's head could not be read.
     */
    asOfBlock: z.string().nullable(),
  }),
});

/** A private key is 66 characters with its 0x; more than this is not one key. */
export const IMPORTED_KEY_MAX_CHARS = 100;

export const importWalletsRoute = defineRoute({
  method: "POST",
  path: "/api/wallets/import",
  access: "user",
  secret: true,
  body: labelled(
    z.object({
      privateKeys: z
        .array(
          z
            .string()
            .max(
              IMPORTED_KEY_MAX_CHARS,
              `is longer than ${IMPORTED_KEY_MAX_CHARS} characters: check that the keys are separated by commas`,
            ),
        )
        .min(1)
        .max(MAX_BUNDLE_WALLETS),
    }),
    { privateKeys: "Private keys", "privateKeys.#": "Private key {row}" },
  ),
  response: z.object({
    success: z.literal(true),
    message: z.string(),
    /** The valid keys' addresses; invalid keys are dropped. */
    wallets: z.array(z.object({ address: addressSchema, privateKey: privateKeySchema })),
  }),
});
