import { type FaucetBody, faucetRoute } from "@bundler/shared";
import { useState } from "react";
import { apiFetch } from "../../lib/api-client.ts";
import { failureText } from "../../lib/api-error.ts";

/** Local chain only: the server's faucet sends BNB to an address. Silent: the caller says it. */
export const fundFromFaucet = (body: FaucetBody) => apiFetch(faucetRoute, { body, silent: true });

/** Where one address's faucet payment stands. */
export type FaucetStep =
  | { state: "queued" }
  | { state: "sending" }
  | { state: "confirmed"; hash: string }
  | { state: "failed"; reason: string };

export const FAUCET_FAILED = "Faucet payment failed";

/**
 * Pays each address from the faucet in turn (one nonce source on the server side, so never in
 * parallel), keeping where each payment stands so a list can show every row move: queued,
 * sending (the faucet answers once its transfer is in a block), confirmed with its hash, or
 * failed with why. A failed payment does not stop the ones after it. `run` answers how many
 * were confirmed.
 */
export function useFaucetFunding() {
  const [steps, setSteps] = useState<ReadonlyMap<string, FaucetStep>>(new Map());
  const [busy, setBusy] = useState(false);
  const set = (address: string, step: FaucetStep) =>
    setSteps((current) => new Map(current).set(address.toLowerCase(), step));

  const run = async (payments: readonly FaucetBody[]) => {
    setBusy(true);
    setSteps(new Map(payments.map((p) => [p.address.toLowerCase(), { state: "queued" }])));
    let confirmed = 0;
    let failure: string | null = null;
    for (const payment of payments) {
      set(payment.address, { state: "sending" });
      try {
        const answer = await fundFromFaucet(payment);
        set(payment.address, { state: "confirmed", hash: answer.hash });
        confirmed += 1;
      } catch (error) {
        failure = failureText(error, FAUCET_FAILED);
        set(payment.address, { state: "failed", reason: failure });
      }
    }
    setBusy(false);
    return { confirmed, failed: payments.length - confirmed, failure };
  };

  return {
    run,
    busy,
    /** By lowercased address; empty until a run starts. */
    stepOf: (address: string) => steps.get(address.toLowerCase()),
  };
}

export type FaucetFunding = ReturnType<typeof useFaucetFunding>;
