import { plural } from "@bundler/shared";
import { ApiError } from "../../../lib/api-error.ts";

/** What the wallet manager tells the user (SPEC §8, "Wallets" and the success messages). */
export const WALLETS_MESSAGES = {
  emptyFailed: "Something went wrong with emptying the wallets, please try again.",
  sellFailed: "Something went wrong with selling the tokens, please try again.",
  developerSellFailed: "Something went wrong with selling developer tokens, please try again.",
  emptied: (count: number) => `${plural(count, "wallet")} emptied successfully`,
  /** Some of the wallets emptied, not all: how many did not, and the first reason. */
  emptyPartlyFailed: (count: number, reason: string | null) =>
    `${plural(count, "wallet")} could not be emptied${reason ? `: ${reason}` : ""}`,
  noTokens: "No tokens found",
} as const;

/**
 * A failed sell or empty as the user reads it: the spec's text first, then why: the server's
 * own reason ("Wallet 0xB7d5… holds only 1,356,297.99 tokens, less than the … to sell"), else
 * the catalogue's title (offline, rate limited), on a line of its own.
 */
export function failedBecause(specText: string, error: unknown): string {
  return withReason(
    specText,
    error instanceof ApiError ? (error.serverMessage ?? error.title) : null,
  );
}

/** The spec's text, then the reason on a line of its own when there is one. */
export const withReason = (specText: string, reason: string | null): string =>
  reason ? `${specText}\n${reason}` : specText;
