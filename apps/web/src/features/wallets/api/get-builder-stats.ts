import { builderStatsRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** The caller's own bundles' builders over 24 hours and 7 days. Silent: the panel stays away. */
export const getBuilderStats = (signal?: AbortSignal) =>
  apiFetch(builderStatsRoute, { signal, silent: true });

export const getBuilderStatsQueryOptions = () =>
  queryOptions({
    queryKey: ["bundles", "builders"] as const,
    queryFn: ({ signal }) => getBuilderStats(signal),
  });

export const useBuilderStats = () => useQuery(getBuilderStatsQueryOptions());
