import { withdrawBumperRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch, type RouteBody } from "../../../lib/api-client.ts";
import { bumperKey } from "./get-bumpers.ts";

export type WithdrawBumperBody = RouteBody<typeof withdrawBumperRoute>;

/** Sends the bumper's BNB to the receiver. Silent: the page toasts the outcome. */
export const withdrawBumper = (body: WithdrawBumperBody) =>
  apiFetch(withdrawBumperRoute, { body, silent: true });

/** Balances are read again whatever happened. */
export const useWithdrawBumper = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: withdrawBumper,
    onSettled: () => queryClient.invalidateQueries({ queryKey: bumperKey }),
  });
};
