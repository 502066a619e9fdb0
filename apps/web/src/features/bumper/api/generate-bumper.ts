import { type GenerateBumperBody, generateBumperRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { getBumperQueryOptions } from "./get-bumper.ts";
import { bumperKey } from "./get-bumpers.ts";

/** Creates a bumper, or answers the user's existing one for the token. Silent: the page toasts. */
export const generateBumper = (body: GenerateBumperBody) =>
  apiFetch(generateBumperRoute, { body, silent: true });

/** The answered bumper shows at once (its bumps follow with the refetch). */
export const useGenerateBumper = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: generateBumper,
    onSuccess: ({ bumper }) => {
      const { queryKey } = getBumperQueryOptions(bumper.id);
      if (!queryClient.getQueryData(queryKey))
        queryClient.setQueryData(queryKey, { success: true, bumper, bumps: [] });
      return queryClient.invalidateQueries({ queryKey: bumperKey });
    },
  });
};
