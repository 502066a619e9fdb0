import { listDraftsRoute } from "@bundler/shared";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** Every page of the list: what mutations invalidate. */
export const draftsListKey = ["drafts", "list"] as const;

/** One page of the list (9 drafts, no keys, logos by URL). Silent: the page says it failed. */
export const getDrafts = (page: number, signal?: AbortSignal) =>
  apiFetch(listDraftsRoute, { query: { page }, signal, silent: true });

export const getDraftsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...draftsListKey, page] as const,
    queryFn: ({ signal }) => getDrafts(page, signal),
  });

/**
 * A page of drafts; the previous page stays on screen while the next one loads. `pollMs`
 * refetches while something is in flight (a launch in the terminal).
 */
export const useDrafts = ({ page, pollMs }: { page: number; pollMs?: number | false }) =>
  useQuery({
    ...getDraftsQueryOptions(page),
    refetchInterval: pollMs ?? false,
    placeholderData: keepPreviousData,
  });
