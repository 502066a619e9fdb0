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

/** SPEC §9's balance poll: a bundle's page reads its balances again this often while shown. */
export const BUNDLE_BALANCES_POLL_MS = 10_000;

/**
 * The bundle's balances, read again every 10 s while the page is visible (a hidden tab
 * polls nothing) and whenever the window gets the focus back (`useRefetchOnFocus`).
 */
export const useBundleBalances = (address: string) =>
  useQuery({
    ...getBundleBalancesQueryOptions(address),
    refetchInterval: BUNDLE_BALANCES_POLL_MS,
    refetchIntervalInBackground: false,
  });
