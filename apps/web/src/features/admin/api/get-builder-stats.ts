import { adminBuilderStatsRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { adminKey } from "./get-admin-stats.ts";

/** Every builder's record over 24 hours and 7 days. Silent: the page says when it failed. */
export const getBuilderStats = (signal?: AbortSignal) =>
  apiFetch(adminBuilderStatsRoute, { signal, silent: true });

export const getBuilderStatsQueryOptions = () =>
  queryOptions({
    queryKey: [...adminKey, "builders"] as const,
    queryFn: ({ signal }) => getBuilderStats(signal),
  });

export const useBuilderStats = () => useQuery(getBuilderStatsQueryOptions());
