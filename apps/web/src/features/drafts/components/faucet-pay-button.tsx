import toast from "react-hot-toast";
import { Button } from "../../../components/ui/button.tsx";
import { usePublicConfig } from "../../../lib/public-config.ts";
import { failureText } from "../api/draft-request.ts";
import { usePayFromFaucet } from "../api/pay-from-faucet.ts";

/** Local profile only: lets a newcomer pay the fee without an outside wallet. */
export function FaucetPayButton({
  address,
  amount,
  onSent,
}: {
  address: string;
  amount: string;
  onSent: () => void;
}) {
  const config = usePublicConfig();
  const faucet = usePayFromFaucet();
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
              toast.success(`Sent ${answer.amount} BNB from the faucet`);
              onSent();
            },
            onError: (error) => toast.error(failureText(error, "Faucet payment failed")),
          },
        )
      }
    >
      [pay from faucet]
    </Button>
  );
}
