import { executeDraftRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { draftRequest } from "./draft-request.ts";
import { draftsListKey } from "./get-drafts.ts";

/** Starts the launch job for a paid draft; progress arrives on the socket. */
export const executeDraft = (id: string) => draftRequest(executeDraftRoute, id);

export const useExecuteDraft = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: executeDraft,
    onSettled: () => queryClient.invalidateQueries({ queryKey: draftsListKey }),
  });
};
