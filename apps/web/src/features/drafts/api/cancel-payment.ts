import { cancelPaymentRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { draftRequest } from "./draft-request.ts";
import { draftsListKey } from "./get-drafts.ts";

/** Returns a pending_payment draft to draft. */
export const cancelPayment = (id: string) => draftRequest(cancelPaymentRoute, id);

export const useCancelPayment = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelPayment,
    onSettled: () => queryClient.invalidateQueries({ queryKey: draftsListKey }),
  });
};
