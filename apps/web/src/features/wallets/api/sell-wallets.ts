import { sellWalletsRoute } from "@bundler/shared";
import { useMutation } from "@tanstack/react-query";
import { apiFetch, type RouteBody } from "../../../lib/api-client.ts";

export type SellWalletsBody = RouteBody<typeof sellWalletsRoute>;

/** Sells from each selected wallet. Silent: the page toasts the spec's own failure text. */
export const sellWallets = (body: SellWalletsBody) =>
  apiFetch(sellWalletsRoute, { body, silent: true });

/** Balances are refetched once the transactions finish, not when the answer arrives. */
export const useSellWallets = () => useMutation({ mutationFn: sellWallets });
