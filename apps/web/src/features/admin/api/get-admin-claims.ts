import { adminClaimsRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { payoutPollInterval } from "../utils/claim-state.ts";
import { adminKey } from "./get-admin-stats.ts";

/** Every user's pending claims, newest first (the first page). Silent: see the page. */
export const getPendingClaims = (signal?: AbortSignal) =>
  apiFetch(adminClaimsRoute, { query: { status: "pending", page: 1 }, signal, silent: true });

export const getPendingClaimsQueryOptions = () =>
  queryOptions({
    queryKey: [...adminKey, "claims", "pending"] as const,
    queryFn: ({ signal }) => getPendingClaims(signal),
  });

/** Read again every 5 s while one of them has a payout on its way. */
export const usePendingClaims = () =>
  useQuery({
    ...getPendingClaimsQueryOptions(),
    refetchInterval: (query) => payoutPollInterval(query.state.data?.claims),
  });
