import { type FaucetBody, faucetRoute } from "@bundler/shared";
import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** Local profile only: the dev faucet sends the fee to the payment address. */
export const payFromFaucet = (body: FaucetBody) => apiFetch(faucetRoute, { body, silent: true });

export const usePayFromFaucet = () => useMutation({ mutationFn: payFromFaucet });
