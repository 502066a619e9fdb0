import { REFERRAL_CODE_PATTERN as CODE_PATTERN, REFERRAL_QUERY_PARAM } from "@bundler/shared";

/** localStorage key holding the referral code of the last `?referral={code}` link followed. */
export const REFERRAL_CODE_KEY = "referralCode";

/** The `referral` query parameter of `search` when it can be a code, else null. */
export function referralCodeFrom(search: string): string | null {
  const code = new URLSearchParams(search).get(REFERRAL_QUERY_PARAM)?.trim() ?? "";
  return CODE_PATTERN.test(code) ? code : null;
}

/** The remembered code, or null (none, unreadable storage, or a value that is not a code). */
export function readReferralCode(storage: Pick<Storage, "getItem"> = localStorage): string | null {
  try {
    const code = storage.getItem(REFERRAL_CODE_KEY);
    return code !== null && CODE_PATTERN.test(code) ? code : null;
  } catch {
    return null;
  }
}

/**
 * Remembers the code of a `?referral=` link; the latest link followed wins. Answers the code
 * remembered, or null when `search` names none.
 */
export function rememberReferralCode(
  search: string,
  storage: Pick<Storage, "setItem"> = localStorage,
): string | null {
  const code = referralCodeFrom(search);
  if (!code) return null;
  try {
    storage.setItem(REFERRAL_CODE_KEY, code);
  } catch {
    // Storage full or blocked: the purchase goes without the discount.
  }
  return code;
}

/** Forgets the remembered code (the server said it names no one). */
export function forgetReferralCode(storage: Pick<Storage, "removeItem"> = localStorage): void {
  try {
    storage.removeItem(REFERRAL_CODE_KEY);
  } catch {
    // Nothing more to do: the next request would be refused the same way and forget again.
  }
}
