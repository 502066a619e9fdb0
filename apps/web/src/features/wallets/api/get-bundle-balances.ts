import { bundleBalancesRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** Every bundle's balances: what sells and empties invalidate. */
export const bundleBalancesKey = ["bundles", "balances"] as const;

/**
 * One bundle with every wallet's token and BNB balance, the developer's, and the token's
 * supply. Silent: the page shows the failure itself.
 */
export const getBundleBalances = (address: string, signal?: AbortSignal) =>
  apiFetch(bundleBalancesRoute, { query: { address }, signal, silent: true });

export const getBundleBalancesQueryOptions = (address: string) =>
  queryOptions({
    queryKey: [...bundleBalancesKey, address.toLowerCase()] as const,
    queryFn: ({ signal }) => getBundleBalances(address, signal),
  });

export const useBundleBalances = (address: string) =>
  useQuery(getBundleBalancesQueryOptions(address));
