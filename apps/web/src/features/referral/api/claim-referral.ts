import { claimReferralRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { referralKey } from "./get-referral-info.ts";

/** Asks for the whole claimable amount at `receivingAddress`. Silent: the form words the failure. */
export const claimReferral = (receivingAddress: string) =>
  apiFetch(claimReferralRoute, { body: { receivingAddress }, silent: true });

export const useClaimReferral = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: claimReferral,
    onSettled: () => queryClient.invalidateQueries({ queryKey: referralKey }),
  });
};
