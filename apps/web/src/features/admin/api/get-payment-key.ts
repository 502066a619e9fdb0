import { draftPaymentKeyRoute } from "@bundler/shared";
import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/**
 * A draft's payment private key, for a refund by hand; the server logs the view with `reason`
 * before it answers. A mutation, never cached: each view is its own audited request.
 */
export const getPaymentKey = ({ draftId, reason }: { draftId: string; reason: string }) =>
  apiFetch(draftPaymentKeyRoute, { params: { id: draftId }, query: { reason }, silent: true });

export const useGetPaymentKey = () => useMutation({ mutationFn: getPaymentKey });
