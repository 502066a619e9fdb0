import { listDraftsRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** Silent: the page shows "Failed to fetch drafts" itself. */
export const getDrafts = async (signal?: AbortSignal) =>
  (await apiFetch(listDraftsRoute, { signal, silent: true })).drafts;

export const getDraftsQueryOptions = () =>
  queryOptions({
    queryKey: ["drafts", "list"] as const,
    queryFn: ({ signal }) => getDrafts(signal),
  });

/** `pollMs` refetches while something is in flight (a launch in the terminal). */
export const useDrafts = ({ pollMs }: { pollMs?: number | false } = {}) =>
  useQuery({ ...getDraftsQueryOptions(), refetchInterval: pollMs ?? false });
