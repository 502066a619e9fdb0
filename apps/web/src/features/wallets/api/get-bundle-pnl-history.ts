import { bundlePnlHistoryRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { BUNDLE_PNL_POLL_MS, bundlePnlKey } from "./get-bundle-pnl.ts";

/** The P&L chart's points, one per block with ledger events. Silent: the chart says so. */
export const getBundlePnlHistory = (address: string, signal?: AbortSignal) =>
  apiFetch(bundlePnlHistoryRoute, { query: { address }, signal, silent: true });

export const getBundlePnlHistoryQueryOptions = (address: string) =>
  queryOptions({
    queryKey: [...bundlePnlKey(address), "history"] as const,
    queryFn: ({ signal }) => getBundlePnlHistory(address, signal),
  });

/** The chart's events, read again with the totals (every minute, and after a sell). */
export const useBundlePnlHistory = (address: string) =>
  useQuery({
    ...getBundlePnlHistoryQueryOptions(address),
    refetchInterval: BUNDLE_PNL_POLL_MS,
    refetchIntervalInBackground: false,
  });
