import { dispersalLogRoute } from "@bundler/shared";
import { apiFetch } from "../../../lib/api-client.ts";

/**
 * The dispersal's transaction log so far, rebuilt by the server from its records: what a page
 * reloaded mid-dispersal missed. Silent: without it the log shows the live lines only.
 */
export const getDispersalLog = async (dispersalId: string, signal?: AbortSignal) =>
  (await apiFetch(dispersalLogRoute, { query: { dispersalId }, signal, silent: true })).lines;
