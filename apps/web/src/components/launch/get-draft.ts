import { getDraftRoute, paymentStatusRoute } from "@bundler/shared";
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
 * One draft's status, polled every `pollMs` while `id` is set: the terminal follows its launch
 * here, since a draft whose status changes moves to the top of the list, off the page shown.
 * It asks `GET /api/draft/:id/payment/status`, whose answer carries the draft's status from one
 * narrow row: the whole draft (`GET /api/draft/:id`) would decrypt its keys and read its logo
 * every few seconds for one field.
 */
export const useLiveDraftStatus = (id: string | null, pollMs: number) =>
  useQuery({
    queryKey: ["drafts", "live-status", id ?? ""] as const,
    queryFn: async ({ signal }) =>
      (await apiFetch(paymentStatusRoute, { params: { id: id ?? "" }, signal, silent: true }))
        .status,
    enabled: Boolean(id),
    retry: false,
    refetchInterval: pollMs,
    gcTime: 0,
  });
