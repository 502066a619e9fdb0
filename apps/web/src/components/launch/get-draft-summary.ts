import { draftSummaryRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../lib/api-client.ts";

/** The plan of a saved draft as executing it now would run. Silent: the dialog shows a failure. */
export const getDraftSummary = async (id: string, signal?: AbortSignal) =>
  (await apiFetch(draftSummaryRoute, { params: { id }, signal, silent: true })).plan;

export const getDraftSummaryQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["drafts", "summary", id] as const,
    queryFn: ({ signal }) => getDraftSummary(id, signal),
  });

/** Asked afresh each time the execute confirmation opens: gas prices move. */
export const useDraftSummary = (id: string) =>
  useQuery({ ...getDraftSummaryQueryOptions(id), gcTime: 0 });
