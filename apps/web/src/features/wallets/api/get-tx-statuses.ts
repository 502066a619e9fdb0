import { txStatusRoute } from "@bundler/shared";
import { apiFetch } from "../../../lib/api-client.ts";

/** SPEC §9: a sell's pending transactions are polled every 3 s. */
export const SELL_STATUS_POLL_MS = 3000;

/** Where each transaction stands. Silent: a failed poll is simply tried again. */
export const getTxStatuses = async (txHashes: readonly string[], signal?: AbortSignal) =>
  (await apiFetch(txStatusRoute, { body: { txHashes: [...txHashes] }, signal, silent: true }))
    .statuses;
