import { bundlePnlRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** A bundle's P&L and its chart's history: what a finished sell or empty invalidates. */
export const bundlePnlKey = (address: string) => ["bundles", "pnl", address.toLowerCase()] as const;

/** The "a point per minute while the page is open": the P&L is read again this often. */
export const BUNDLE_PNL_POLL_MS = 60_000;

/** A bundle's cost, proceeds, worth and reconciliation. Silent: the panel shows the failure. */
export const getBundlePnl = (address: string, signal?: AbortSignal) =>
  apiFetch(bundlePnlRoute, { query: { address }, signal, silent: true });

export const getBundlePnlQueryOptions = (address: string) =>
  queryOptions({
    queryKey: [...bundlePnlKey(address), "totals"] as const,
    queryFn: ({ signal }) => getBundlePnl(address, signal),
  });

/** The P&L, read again every minute while the page is visible. */
export const useBundlePnl = (address: string) =>
  useQuery({
    ...getBundlePnlQueryOptions(address),
    refetchInterval: BUNDLE_PNL_POLL_MS,
    refetchIntervalInBackground: false,
  });
