import { getConfigRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "./api-client.ts";

/** Deployment facts served without auth: chain, explorer, faucet, footer links. */
export const getConfig = async (signal?: AbortSignal) =>
  (await apiFetch(getConfigRoute, { signal })).config;

export const getConfigQueryOptions = () =>
  queryOptions({
    queryKey: ["config"] as const,
    queryFn: ({ signal }) => getConfig(signal),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { public: true },
  });

export const usePublicConfig = () => useQuery(getConfigQueryOptions());
