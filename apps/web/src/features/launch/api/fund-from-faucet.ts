import { type FaucetBody, faucetRoute } from "@bundler/shared";
import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** Local chain only: the server's faucet sends BNB to an address. Silent: the caller toasts. */
export const fundFromFaucet = (body: FaucetBody) => apiFetch(faucetRoute, { body, silent: true });

/** Funds each payment in turn (one nonce source on the server side, so never in parallel). */
export async function fundAllFromFaucet(payments: readonly FaucetBody[]): Promise<void> {
  for (const payment of payments) await fundFromFaucet(payment);
}

export const useFundFromFaucet = () => useMutation({ mutationFn: fundAllFromFaucet });
