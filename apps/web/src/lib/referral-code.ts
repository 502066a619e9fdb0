/** localStorage key holding the referral code of the last `?referral={code}` link followed. */
export const REFERRAL_CODE_KEY = "referralCode";

/** The shape a referral code can have (SPEC §5 / issue 15): 3–20 of `[A-Za-z0-9_-]`. */
const CODE_PATTERN = /^[A-Za-z0-9_-]{3,20}$/;

/** The `referral` query parameter of `search` when it can be a code, else null. */
export function referralCodeFrom(search: string): string | null {
  const code = new URLSearchParams(search).get("referral")?.trim() ?? "";
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
