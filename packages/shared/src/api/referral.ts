import { z } from "zod";
import { isValidAddress } from "../constants.ts";
import { defineRoute } from "./common.ts";
import { addressSchema, bnbValueSchema } from "./money.ts";

/** A custom referral code: 3 to 20 letters, digits, `_` or `-`, unique case-insensitively. */
export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9_-]{3,20}$/;

/** `?referral={code}` on any page: the browser keeps the code and sends it with a key. */
export const REFERRAL_QUERY_PARAM = "referral";

/** The words the referral screen and the server say (SPEC §5 word for word where it has them). */
export const REFERRAL_MESSAGES = {
  codeRequired: "Please enter a custom code",
  codeFormat: "A code is 3 to 20 letters, digits, _ or -",
  codeTaken: "this code is taken",
  codeExists: "You already have a referral code",
  invalidCode: "Invalid referral code",
  ownCode: "You cannot use your own referral code",
  nothingToClaim: "No BNB available to claim",
  addressRequired: "Please enter a receiving address",
  addressInvalid: "Please enter a valid BNB address",
  claimPending: "A claim is already pending: wait until it is completed or rejected",
  created: "Referral code created successfully!",
  claimed: "Claim request submitted successfully!",
} as const;

/** SPEC §5: the first thing wrong with a custom code, or null when it can be created. */
export const referralCodeError = (code: string): string | null => {
  const value = code.trim();
  if (!value) return REFERRAL_MESSAGES.codeRequired;
  if (!REFERRAL_CODE_PATTERN.test(value)) return REFERRAL_MESSAGES.codeFormat;
  return null;
};

/** SPEC §5: what is wrong with a claim's receiving address, or null. */
export const claimAddressError = (address: string): string | null => {
  const value = address.trim();
  if (!value) return REFERRAL_MESSAGES.addressRequired;
  if (!isValidAddress(value)) return REFERRAL_MESSAGES.addressInvalid;
  return null;
};

/**
 * SPEC §5 claim: claimable must be more than 0 (a BNB decimal string), then the address.
 * The first message that applies, or null.
 */
export const claimRequestError = (claimable: string, address: string): string | null => {
  if (!/^\d+(\.\d+)?$/.test(claimable.trim()) || !/[1-9]/.test(claimable))
    return REFERRAL_MESSAGES.nothingToClaim;
  return claimAddressError(address);
};

/** The link a referrer shares: the origin plus `?referral={code}` (SPEC §2). */
export const referralLink = (origin: string, code: string): string =>
  `${origin}?${REFERRAL_QUERY_PARAM}=${encodeURIComponent(code)}`;

/**
 * A referral code a key request may carry (free key or key purchase): optional; blank counts as
 * none. Whether it names a code is the server's answer ("Invalid referral code", 400).
 */
export const optionalReferralCodeSchema = z
  .string()
  .trim()
  .max(64, REFERRAL_MESSAGES.invalidCode)
  .optional()
  .transform((code) => (code ? code : undefined));

export const CLAIM_STATUSES = ["pending", "completed", "rejected"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/**
 * A reward claim (SPEC §3). While pending, `txHash` is the payout sent and not yet mined, or
 * the last failed one with why in `reason`; once rejected, `reason` is the admin's.
 */
export const claimSchema = z.object({
  id: z.string(),
  /** BNB. */
  amount: bnbValueSchema,
  status: z.enum(CLAIM_STATUSES),
  requestedAt: z.string(),
  receivingAddress: addressSchema,
  txHash: z.string().nullable(),
  reason: z.string().nullable(),
  /** When it was completed (mined) or rejected. */
  decidedAt: z.string().nullable(),
});
export type Claim = z.infer<typeof claimSchema>;

/**
 * SPEC §3 Referral info. `earned` is every reward ever credited; `claimable` what a claim would
 * reserve now; `pending` what a pending claim holds; BNB decimal strings.
 */
export const referralInfoSchema = z.object({
  code: z.string().nullable(),
  /** Users whose key came with this code (a bought key or a free one). */
  uses: z.number().int().min(0),
  earned: bnbValueSchema,
  claimable: bnbValueSchema,
  pending: bnbValueSchema,
  /** Paid out by completed claims. */
  claimed: bnbValueSchema,
  hasPendingClaim: z.boolean(),
});
export type ReferralInfo = z.infer<typeof referralInfoSchema>;

export const referralInfoRoute = defineRoute({
  method: "GET",
  path: "/api/auth/referral/info",
  access: "user",
  body: undefined,
  response: z.object({ success: z.literal(true) }).extend(referralInfoSchema.shape),
});

/**
 * Creates the caller's one code. The body's strings are only bounded here: the server answers
 * `referralCodeError`'s words exactly (400), and "this code is taken" for a taken code.
 */
export const createReferralCodeRoute = defineRoute({
  method: "POST",
  path: "/api/auth/referral/create",
  access: "user",
  body: z.object({ code: z.string().max(200, REFERRAL_MESSAGES.codeFormat) }),
  response: z.object({ success: z.literal(true), code: z.string(), message: z.string() }),
});

/**
 * Reserves the whole claimable amount for one claim. The server answers `claimRequestError`'s
 * words exactly (400: nothing to claim first, then the address), and 409 while a claim is pending.
 */
export const claimReferralRoute = defineRoute({
  method: "POST",
  path: "/api/auth/referral/claim",
  access: "user",
  movesMoney: true,
  body: z.object({ receivingAddress: z.string().max(200, REFERRAL_MESSAGES.addressInvalid) }),
  response: z.object({ success: z.literal(true), claim: claimSchema, message: z.string() }),
});

export const referralClaimsRoute = defineRoute({
  method: "GET",
  path: "/api/auth/referral/claims",
  access: "user",
  body: undefined,
  /** Newest first. */
  response: z.object({ success: z.literal(true), claims: z.array(claimSchema) }),
});
