import { completeClaimRoute, rejectClaimRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { adminKey } from "./get-admin-stats.ts";

export type ClaimDecision = "complete" | "reject";

/** Pays a pending claim from the treasury (complete) or hands its amount back (reject). */
export const decideClaim = ({ id, decision }: { id: string; decision: ClaimDecision }) =>
  decision === "complete"
    ? apiFetch(completeClaimRoute, { params: { id }, silent: true })
    : apiFetch(rejectClaimRoute, { params: { id }, body: {}, silent: true });

export const useDecideClaim = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideClaim,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKey }),
  });
};
