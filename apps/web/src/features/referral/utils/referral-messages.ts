import { ApiError } from "../../../lib/api-error.ts";

/** SPEC §8's referral toasts. */
export const REFERRAL_TOASTS = {
  createFailed: "Failed to create referral code",
  claimFailed: "Failed to submit claim",
  exception: "An error occurred",
} as const;

/**
 * What a failed create or claim toasts: the server's words when it gave a reason, the spec's
 * fallback when it answered without one, "An error occurred" when no answer came at all.
 */
export function referralFailure(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError) || error.status === null) return REFERRAL_TOASTS.exception;
  return error.serverMessage ?? fallback;
}
