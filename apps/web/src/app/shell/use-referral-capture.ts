import { useEffect } from "react";
import { useLocation } from "react-router";
import { rememberReferralCode } from "../../lib/referral-code.ts";

/**
 * `?referral={code}` on any page is remembered (local storage) for a later key purchase or
 * free key request.
 */
export function useReferralCapture(): void {
  const { search } = useLocation();
  useEffect(() => {
    rememberReferralCode(search);
  }, [search]);
}
