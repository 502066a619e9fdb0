import { emptyWalletsRoute } from "@bundler/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch, type RouteBody } from "../../../lib/api-client.ts";
import { getBundleBalancesQueryOptions } from "./get-bundle-balances.ts";

export type EmptyWalletsBody = RouteBody<typeof emptyWalletsRoute>;

/** Sends every selected wallet's BNB to the receiver. Silent: the page toasts the outcome. */
export const emptyWallets = (body: EmptyWalletsBody) =>
  apiFetch(emptyWalletsRoute, { body, silent: true });

/** The bundle's balances are refetched once the transfers are done, whatever the outcome. */
export const useEmptyWallets = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: emptyWallets,
    onSettled: (_data, _error, body) =>
      queryClient.invalidateQueries({
        queryKey: getBundleBalancesQueryOptions(body.address).queryKey,
      }),
  });
};
