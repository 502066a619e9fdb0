import { deleteDraftRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { draftRequest } from "./draft-request.ts";
import { draftsListKey } from "./get-drafts.ts";

export const deleteDraft = (id: string) => draftRequest(deleteDraftRoute, id);

export const useDeleteDraft = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDraft,
    onSettled: () => queryClient.invalidateQueries({ queryKey: draftsListKey }),
  });
};
