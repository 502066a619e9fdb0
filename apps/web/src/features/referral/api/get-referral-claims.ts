import { referralClaimsRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { referralKey } from "./get-referral-info.ts";

/** The caller's claims, newest first. */
export const getReferralClaims = (signal?: AbortSignal) =>
  apiFetch(referralClaimsRoute, { signal });

export const getReferralClaimsQueryOptions = () =>
  queryOptions({
    queryKey: [...referralKey, "claims"] as const,
    queryFn: ({ signal }) => getReferralClaims(signal),
  });

export const useReferralClaims = () => useQuery(getReferralClaimsQueryOptions());
