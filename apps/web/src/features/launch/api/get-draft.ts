import { queryOptions, useQuery } from "@tanstack/react-query";
import { getDraft } from "../../../components/launch/get-draft.ts";

export const getDraftQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["drafts", "detail", id] as const,
    queryFn: ({ signal }) => getDraft(id, signal),
    // The form owns the data once loaded; a background refetch must not overwrite edits.
    staleTime: Number.POSITIVE_INFINITY,
    // Opened again, the draft is read afresh: it may have been paid for or launched since.
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });

export const useDraft = (id: string | null, enabled: boolean) =>
  useQuery({ ...getDraftQueryOptions(id ?? ""), enabled: enabled && Boolean(id) });
