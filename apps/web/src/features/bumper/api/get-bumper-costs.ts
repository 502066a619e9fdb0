import { bumperCostsRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { bumperKey } from "./get-bumpers.ts";

/** A bump's tip, gas at today's price and trading fees. Silent: the plan says it is missing. */
export const getBumperCosts = (signal?: AbortSignal) =>
  apiFetch(bumperCostsRoute, { signal, silent: true });

export const getBumperCostsQueryOptions = () =>
  queryOptions({
    queryKey: [...bumperKey, "costs"] as const,
    queryFn: async ({ signal }) => (await getBumperCosts(signal)).costs,
    // The gas price moves slowly; a minute-old plan is as good as a fresh one.
    staleTime: 60_000,
    refetchInterval: 60_000,
  });

export const useBumperCosts = () => useQuery(getBumperCostsQueryOptions());
