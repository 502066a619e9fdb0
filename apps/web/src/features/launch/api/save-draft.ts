import { createDraftRoute, type DraftInput, updateDraftRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

export const SAVE_DRAFT_FAILED = "Failed to save draft";

export interface SaveDraftInput {
  /** Present when editing: updates instead of creating. */
  id: string | null;
  draft: DraftInput;
}

/** Creates or updates a draft; answers its id. */
export async function saveDraft({ id, draft }: SaveDraftInput): Promise<string> {
  const response = id
    ? await apiFetch(updateDraftRoute, { params: { id }, body: draft, silent: true })
    : await apiFetch(createDraftRoute, { body: draft, silent: true });
  return response.draftId || response.draft._id;
}

export const useSaveDraft = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDraft,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["drafts"] }),
  });
};
