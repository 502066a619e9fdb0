import { listRulesRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** A bundle's auto-sell rules: what arming, pausing, resuming and cancelling invalidate. */
export const bundleRulesKey = (address: string) =>
  ["bundles", "rules", address.toLowerCase()] as const;

/** A bundle's rules with their readings and firings. Silent: the panel shows the failure. */
export const getBundleRules = (address: string, signal?: AbortSignal) =>
  apiFetch(listRulesRoute, { query: { address }, signal, silent: true });

export const getBundleRulesQueryOptions = (address: string) =>
  queryOptions({
    queryKey: bundleRulesKey(address),
    queryFn: ({ signal }) => getBundleRules(address, signal),
  });

/** The rules; the panel reads them again on each new block. */
export const useBundleRules = (address: string) => useQuery(getBundleRulesQueryOptions(address));
