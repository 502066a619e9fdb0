import { createReferralCodeRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { referralKey } from "./get-referral-info.ts";

/** Creates the caller's one code. Silent: the form words the failure (SPEC §8). */
export const createReferralCode = (code: string) =>
  apiFetch(createReferralCodeRoute, { body: { code }, silent: true });

export const useCreateReferralCode = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReferralCode,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: referralKey }),
  });
};
