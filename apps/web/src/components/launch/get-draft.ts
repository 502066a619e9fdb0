import { getDraftRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../lib/api-client.ts";

/** The whole draft (keys included): for what the list's summary cannot answer. Silent. */
export const getDraft = async (id: string, signal?: AbortSignal) =>
  (await apiFetch(getDraftRoute, { params: { id }, signal, silent: true })).draft;

export const getDraftQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["drafts", "live", id] as const,
    queryFn: ({ signal }) => getDraft(id, signal),
    retry: false,
  });

/**
 * One draft, polled every `pollMs` while `id` is set: the terminal follows its launch here,
 * since a draft whose status changes moves to the top of the list, off the page shown.
 */
export const useLiveDraft = (id: string | null, pollMs: number) =>
  useQuery({
    ...getDraftQueryOptions(id ?? ""),
    enabled: Boolean(id),
    refetchInterval: pollMs,
    gcTime: 0,
  });
