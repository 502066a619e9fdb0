import { REFERRAL_MESSAGES } from "@bundler/shared";
import { ApiError } from "../../../lib/api-error.ts";
import { forgetReferralCode, readReferralCode } from "../../../lib/referral-code.ts";

export interface ReferralStore {
  read: () => string | null;
  forget: () => void;
}

const browserStore: ReferralStore = { read: readReferralCode, forget: forgetReferralCode };

const refusedWith = (error: unknown, message: string): boolean =>
  error instanceof ApiError && error.status === 400 && error.serverMessage === message;
const isUnknownCode = (error: unknown) => refusedWith(error, REFERRAL_MESSAGES.invalidCode);
const isOwnCode = (error: unknown) => refusedWith(error, REFERRAL_MESSAGES.ownCode);

/**
 * Runs a key request with the remembered referral code. When the server says the code names
 * no one, the code is forgotten and the request made once more without it: a stale link never
 * keeps anybody from a key. The user's own code is forgotten too, and the refusal said (the
 * next request goes without it).
 */
export async function withReferralCode<T>(
  request: (referralCode: string | undefined) => Promise<T>,
  store: ReferralStore = browserStore,
): Promise<T> {
  const code = store.read();
  if (!code) return request(undefined);
  try {
    return await request(code);
  } catch (error) {
    if (isOwnCode(error)) store.forget();
    if (!isUnknownCode(error)) throw error;
    store.forget();
    return request(undefined);
  }
}
