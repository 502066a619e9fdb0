import { adminStatsRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** Every admin query starts with this: an admin action invalidates them all. */
export const adminKey = ["admin"] as const;

/** Platform stats and the daily series. Silent: the page says "Failed to load admin data". */
export const getAdminStats = (signal?: AbortSignal) =>
  apiFetch(adminStatsRoute, { signal, silent: true });

export const getAdminStatsQueryOptions = () =>
  queryOptions({
    queryKey: [...adminKey, "stats"] as const,
    queryFn: ({ signal }) => getAdminStats(signal),
  });

export const useAdminStats = () => useQuery(getAdminStatsQueryOptions());
