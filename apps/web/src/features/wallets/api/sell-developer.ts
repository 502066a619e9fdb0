import { sellDeveloperRoute } from "@bundler/shared";
import { useMutation } from "@tanstack/react-query";
import { apiFetch, type RouteBody } from "../../../lib/api-client.ts";

export type SellDeveloperBody = RouteBody<typeof sellDeveloperRoute>;

/** Sells from the bundle's developer wallet. Silent: the page toasts its own failure text. */
export const sellDeveloper = (body: SellDeveloperBody) =>
  apiFetch(sellDeveloperRoute, { body, silent: true });

export const useSellDeveloper = () => useMutation({ mutationFn: sellDeveloper });
