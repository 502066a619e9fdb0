import type { Hex, LocalAccount } from "viem";
import type { z } from "zod";
import type { publicTokenInfoSchema, raisedTokenSchema } from "./schemas.ts";

/** Where and how to reach four.meme, plus the access tokens it has issued, per deployer. */
export interface FourMemeClient {
  /** e.g. `https://four.meme/meme-api/v1`, without a trailing slash. */
  baseUrl: string;
  /** Milliseconds one request (answer included) may take. */
  timeout: number;
  /** Access tokens by lower-cased deployer address, reused until four.meme says they expired. */
  sessions: Map<string, string>;
}

/** Either the deployer's account (log in as needed, re-login once on expiry) or a bare token. */
export type FourMemeAuth = { account: LocalAccount } | { accessToken: string };

/** Token tags four.meme accepts; the same as the spec's tags. */
export const fourMemeLabels = [
  "Meme",
  "AI",
  "Defi",
  "Games",
  "Infra",
  "De-Sci",
  "Social",
  "Depin",
  "Charity",
  "Others",
] as const;
export type FourMemeLabel = (typeof fourMemeLabels)[number];

/** The token as the deployer describes it. */
export interface FourMemeTokenDraft {
  name: string;
  /** The ticker. */
  shortName: string;
  desc: string;
  label: FourMemeLabel;
  /** Milliseconds since the epoch; defaults to now. */
  launchTime?: number;
  webUrl?: string;
  twitterUrl?: string;
  telegramUrl?: string;
  /**
   * BNB the creator buys in the create transaction, as a decimal string; defaults to "0". The
   * create's value adds the launchpad's trading fee on it (`createTokenValue`).
   */
  preSale?: string;
  /** Makes a tax token (create guide §3.4); left out of the request when not set. */
  tokenTaxInfo?: FourMemeTokenTaxInfo;
}

/**
 * `tokenTaxInfo` as four.meme's create API takes it (create guide §3.4): percents, `feeRate`
 * one of 1, 3, 5, 10; `burnRate + divideRate + liquidityRate + recipientRate` = 100;
 * `recipientAddress` "" with `recipientRate` 0; `minSharing` = d × 10^n, n ≥ 5, 1 ≤ d ≤ 9.
 */
export interface FourMemeTokenTaxInfo {
  feeRate: number;
  burnRate: number;
  divideRate: number;
  liquidityRate: number;
  recipientRate: number;
  recipientAddress: string;
  minSharing: number;
}

/** An image file to upload; four.meme refuses URLs, so these are the bytes themselves. */
export interface FourMemeImage {
  bytes: Uint8Array;
  /** e.g. `image/png`. */
  mimeType: string;
  fileName: string;
}

/** One entry of `GET /public/config`: a currency tokens can raise, copied unmodified into create. */
export type FourMemeRaisedToken = z.output<typeof raisedTokenSchema>;

/** What `createToken(bytes args, bytes signature)` on TokenManager2 needs. */
export interface FourMemeCreateArgs {
  createArg: Hex;
  signature: Hex;
}

/** `GET /private/token/get`: the token as four.meme shows it (unknown fields are kept). */
export type FourMemePublicTokenInfo = z.output<typeof publicTokenInfoSchema>;
