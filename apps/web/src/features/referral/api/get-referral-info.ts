import { referralInfoRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** Every referral query starts with this: a code or a claim invalidates them all. */
export const referralKey = ["referral"] as const;

/** The caller's code, uses, earned and claimable BNB. */
export const getReferralInfo = (signal?: AbortSignal) => apiFetch(referralInfoRoute, { signal });

export const getReferralInfoQueryOptions = () =>
  queryOptions({
    queryKey: [...referralKey, "info"] as const,
    queryFn: ({ signal }) => getReferralInfo(signal),
  });

export const useReferralInfo = () => useQuery(getReferralInfoQueryOptions());
