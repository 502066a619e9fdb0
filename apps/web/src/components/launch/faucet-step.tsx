import { shortAddress } from "../../lib/short-address.ts";
import { Spinner } from "../ui/spinner.tsx";
import { TxHash } from "../ui/tx-hash.tsx";
import type { FaucetStep } from "./fund-from-faucet.ts";

/** One address's faucet payment as a row shows it: queued, sending, confirmed (its hash) or failed. */
export function FaucetStepText({
  step,
  explorerUrl,
}: {
  step: FaucetStep | undefined;
  explorerUrl: string | null;
}) {
  if (!step) return null;
  switch (step.state) {
    case "queued":
      return (
        <span className="text-faint" data-testid="faucet-step" data-state="queued">
          queued
        </span>
      );
    case "sending":
      return (
        <span
          className="flex items-center gap-1.5 text-accent"
          data-testid="faucet-step"
          data-state="sending"
        >
          <Spinner /> sending...
        </span>
      );
    case "confirmed":
      return (
        <span className="text-ok" data-testid="faucet-step" data-state="confirmed">
          confirmed{" "}
          <TxHash hash={step.hash} explorerUrl={explorerUrl} className="hover:underline">
            {shortAddress(step.hash)}
          </TxHash>
        </span>
      );
    case "failed":
      return (
        <span className="break-words text-bad" data-testid="faucet-step" data-state="failed">
          failed: {step.reason}
        </span>
      );
  }
}
