import { type GenerateBumperBody, generateBumperRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { bumperKey } from "./get-bumpers.ts";

/** Creates a bumper, or answers the user's existing one for the token. Silent: the page toasts. */
export const generateBumper = (body: GenerateBumperBody) =>
  apiFetch(generateBumperRoute, { body, silent: true });

export const useGenerateBumper = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateBumper,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bumperKey }),
  });
};
