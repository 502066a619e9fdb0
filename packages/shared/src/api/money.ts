import { z } from "zod";
import { isValidAddress } from "../constants.ts";

const BNB_DECIMAL = /^\d+(\.\d{1,18})?$/;

/**
 * BNB the server reports (a balance, a sum, a refund): a decimal string with at most 18
 * decimals, never a float, of any size.
 */
export const bnbValueSchema = z.string().trim().regex(BNB_DECIMAL, "must be a BNB amount like 0.1");

export const BNB_AMOUNT_LIMIT_MESSAGE = "must be a BNB amount below 1,000,000,000";

/**
 * BNB a caller names: at most 9 integer digits and 18 decimals, so below 1e9 BNB (more than
 * BNB's whole supply) and below 1e27 wei, which every `numeric(78,0)` column holds.
 */
export const bnbAmountSchema = bnbValueSchema.regex(/^\d{1,9}(\.|$)/, BNB_AMOUNT_LIMIT_MESSAGE);

export const addressSchema = z.string().trim().refine(isValidAddress, "Invalid address format");

export const privateKeySchema = z
  .string()
  .trim()
  .regex(/^(0x)?[0-9a-fA-F]{64}$/, "Invalid private key");

/** Wallets a launch may hold; bundles larger than a builder's cap are split. */
export const MAX_BUNDLE_WALLETS = 100;
