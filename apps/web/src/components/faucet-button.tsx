import { type FaucetBody, faucetRoute } from "@bundler/shared";
import { useMutation } from "@tanstack/react-query";
import toast from "react-hot-toast";
import { apiFetch } from "../lib/api-client.ts";
import { formatBnb } from "../lib/bnb.ts";
import { usePublicConfig } from "../lib/public-config.ts";
import { Button } from "./ui/button.tsx";

/** Local profile only: the dev faucet pays `amount` to `address`. */
const payFromFaucet = (body: FaucetBody) => apiFetch(faucetRoute, { body, silent: true });

/**
 * Lets a newcomer on the local chain pay an address (a launch fee, a dispersal) without an
 * outside wallet; renders nothing where the server has no faucet.
 */
export function FaucetButton({
  address,
  amount,
  label,
  errorText,
  onSent,
}: {
  address: string;
  amount: string;
  label: string;
  /** The toast for a failed payment. */
  errorText: (error: unknown) => string;
  onSent: () => void;
}) {
  const config = usePublicConfig();
  const faucet = useMutation({ mutationFn: payFromFaucet });
  if (!config.data?.faucet) return null;
  return (
    <Button
      variant="secondary"
      busy={faucet.isPending || faucet.isSuccess}
      busyLabel={faucet.isSuccess ? "sent from faucet" : "sending..."}
      onClick={() =>
        faucet.mutate(
          { address, amount },
          {
            onSuccess: (answer) => {
              toast.success(`Sent ${formatBnb(answer.amount)} BNB from the faucet`);
              onSent();
            },
            onError: (error) => toast.error(errorText(error)),
          },
        )
      }
    >
      {label}
    </Button>
  );
}
