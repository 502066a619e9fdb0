import { txStatusRoute } from "@bundler/shared";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** SPEC §9: a sell's pending transactions are polled every 3 s. */
export const SELL_STATUS_POLL_MS = 3000;

/** Where each transaction stands. Silent: a failed poll is simply tried again. */
export const getTxStatuses = async (txHashes: readonly string[], signal?: AbortSignal) =>
  (await apiFetch(txStatusRoute, { body: { txHashes: [...txHashes] }, signal, silent: true }))
    .statuses;

/**
 * Where each of `hashes` stands, asked again every 3 s while one is still pending (a fired
 * rule's sales); nothing is asked for an empty list.
 */
export const useTxStatuses = (hashes: readonly string[]) =>
  useQuery({
    queryKey: ["tx", "statuses", [...hashes].sort()] as const,
    queryFn: async ({ signal }) =>
      new Map(
        (await getTxStatuses(hashes, signal)).map((entry) => [entry.hash.toLowerCase(), entry]),
      ),
    enabled: hashes.length > 0,
    refetchInterval: (query) =>
      !query.state.data || [...query.state.data.values()].some((e) => e.status === "pending")
        ? SELL_STATUS_POLL_MS
        : false,
  });
