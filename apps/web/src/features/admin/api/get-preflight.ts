import { adminPreflightRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { adminKey } from "./get-admin-stats.ts";

/** Superadmins only: every check of the server's setup, run now (reads only). Silent: see the page. */
export const getPreflight = (signal?: AbortSignal) =>
  apiFetch(adminPreflightRoute, { signal, silent: true });

export const getPreflightQueryOptions = () =>
  queryOptions({
    queryKey: [...adminKey, "preflight"] as const,
    queryFn: ({ signal }) => getPreflight(signal),
    // The checks read the chain, the API and the builders: run them when asked, not on focus.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });

export const usePreflight = () => useQuery(getPreflightQueryOptions());
