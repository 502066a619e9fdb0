import { MAX_TX_STATUS_HASHES, txStatusRoute } from "@bundler/shared";
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
    queryFn: async ({ signal }) => {
      // One call answers at most MAX_TX_STATUS_HASHES: a long ladder's firings take a few.
      const chunks: string[][] = [];
      for (let i = 0; i < hashes.length; i += MAX_TX_STATUS_HASHES)
        chunks.push(hashes.slice(i, i + MAX_TX_STATUS_HASHES));
      const answers = await Promise.all(chunks.map((chunk) => getTxStatuses(chunk, signal)));
      return new Map(answers.flat().map((entry) => [entry.hash.toLowerCase(), entry]));
    },
    enabled: hashes.length > 0,
    refetchInterval: (query) =>
      !query.state.data || [...query.state.data.values()].some((e) => e.status === "pending")
        ? SELL_STATUS_POLL_MS
        : false,
  });
