import { z } from "zod";
import { isValidAddress } from "../constants.ts";

/** A tax token's fee rates, percent, as four.meme's create API takes them (create guide §3.4). */
export const TAX_FEE_RATES = [1, 3, 5, 10] as const;

/** What each broken tax rule says; each names its field. */
export const TAX_MESSAGES = {
  feeRate: "Tax fee rate must be 1%, 3%, 5% or 10%",
  share: "must be a whole percent from 0 to 100",
  sum: (sum: number) =>
    `Burn, dividend, liquidity and recipient shares must add up to 100% (they add up to ${sum}%)`,
  recipientRequired: "Recipient address is required when the recipient share is over 0%",
  recipientAddress: "Recipient address must be an address: 0x and 40 hex characters",
  minSharing:
    "Minimum balance for dividends must be a digit from 1 to 9 followed by at least five zeros, like 100000 (d × 10^n tokens, n ≥ 5)",
} as const;

const taxShareSchema = z
  .number({ error: TAX_MESSAGES.share })
  .int(TAX_MESSAGES.share)
  .min(0, TAX_MESSAGES.share)
  .max(100, TAX_MESSAGES.share);

/** The create page's labels of `tokenTaxInfo`'s fields, by four.meme's names. */
export const TAX_LABELS = {
  feeRate: "Tax fee rate",
  burnRate: "Burn share",
  divideRate: "Dividend share",
  liquidityRate: "Liquidity share",
  recipientRate: "Recipient share",
  recipientAddress: "Recipient address",
  minSharing: "Minimum balance for dividends",
} as const;

/** d × 10^n with n ≥ 5 and 1 ≤ d ≤ 9: 100000, 200000, ..., 1000000, ... */
export const isMinSharing = (value: number): boolean =>
  Number.isSafeInteger(value) && /^[1-9]0{5,}$/.test(String(value));

/**
 * `tokenTaxInfo` with four.meme's names (create guide §3.4; tax guide §2.2): `feeRate` one of
 * 1, 3, 5, 10 percent; `burnRate + divideRate + liquidityRate + recipientRate` = 100;
 * `recipientAddress` required when `recipientRate` is over 0 (sent as "" when it is 0);
 * `minSharing` (tokens a holder needs for dividends) = d × 10^n, n ≥ 5, 1 ≤ d ≤ 9.
 */
export const tokenTaxInfoSchema = z
  .object({
    feeRate: z
      .number({ error: TAX_MESSAGES.feeRate })
      .refine((rate) => (TAX_FEE_RATES as readonly number[]).includes(rate), TAX_MESSAGES.feeRate),
    burnRate: taxShareSchema,
    divideRate: taxShareSchema,
    liquidityRate: taxShareSchema,
    recipientRate: taxShareSchema,
    recipientAddress: z.string().trim().max(42).default(""),
    minSharing: z
      .number({ error: TAX_MESSAGES.minSharing })
      .refine(isMinSharing, TAX_MESSAGES.minSharing),
  })
  .superRefine((tax, context) => {
    const sum = tax.burnRate + tax.divideRate + tax.liquidityRate + tax.recipientRate;
    if (sum !== 100) context.addIssue({ code: "custom", message: TAX_MESSAGES.sum(sum) });
    if (tax.recipientRate > 0 && tax.recipientAddress === "")
      context.addIssue({
        code: "custom",
        message: TAX_MESSAGES.recipientRequired,
        path: ["recipientAddress"],
      });
    else if (tax.recipientAddress !== "" && !isValidAddress(tax.recipientAddress))
      context.addIssue({
        code: "custom",
        message: TAX_MESSAGES.recipientAddress,
        path: ["recipientAddress"],
      });
  });
export type TokenTaxInfo = z.infer<typeof tokenTaxInfoSchema>;
