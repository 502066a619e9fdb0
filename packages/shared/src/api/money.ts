import { z } from "zod";
import { ADDRESS_PATTERN } from "../constants.ts";

/** BNB on the wire: a decimal string with at most 18 decimals, never a float. */
export const bnbAmountSchema = z
  .string()
  .trim()
  .regex(/^\d+(\.\d{1,18})?$/, "must be a BNB amount like 0.1");

export const addressSchema = z.string().trim().regex(ADDRESS_PATTERN, "Invalid address format");

export const privateKeySchema = z
  .string()
  .trim()
  .regex(/^(0x)?[0-9a-fA-F]{64}$/, "Invalid private key");

/** Wallets a launch may hold; bundles larger than a builder's cap are split. */
export const MAX_BUNDLE_WALLETS = 100;
