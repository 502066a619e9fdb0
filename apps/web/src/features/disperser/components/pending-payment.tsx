import { type Dispersal, plural } from "@bundler/shared";
import { QRCodeSVG } from "qrcode.react";
import { FaucetButton } from "../../../components/faucet-button.tsx";
import { CopyField } from "../../../components/ui/copy-field.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { useNow } from "../../../hooks/use-now.ts";
import { failureText } from "../../../lib/api-error.ts";
import { minutesLeft } from "../utils/dispersal-status.ts";

/** Awaiting payment: where to send how much, before when; locally, the faucet can pay it. */
export function PendingPayment({
  dispersal,
  onFunded,
}: {
  dispersal: Dispersal;
  onFunded: () => void;
}) {
  const now = useNow(15_000);
  const minutes = minutesLeft(dispersal.expiresAt, dispersal.expiresIn, now);
  return (
    <div className="flex flex-col gap-4" data-testid="dispersal-pending">
      <p className="text-dim">
        Send exactly <span className="text-fg">{dispersal.amount} BNB</span> to the address below.
        It covers every wallet's amount plus the gas of every transfer; the dispersal starts as soon
        as it arrives.
      </p>
      <div className="flex justify-center">
        <div className="rounded-sm bg-white p-3" data-testid="dispersal-qr">
          <QRCodeSVG value={dispersal.receiver} size={144} aria-label="Receiver address QR code" />
        </div>
      </div>
      <CopyField
        label="Address"
        value={dispersal.receiver}
        copyLabel="Copy receiver address"
        copiedMessage="Copied address to clipboard"
        data-testid="dispersal-receiver"
      />
      <CopyField
        label="Amount (BNB)"
        value={dispersal.amount}
        copyLabel="Copy amount"
        copiedMessage="Copied amount to clipboard"
        data-testid="dispersal-amount"
      />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <span className="flex items-center gap-2 text-xs text-dim">
          <Spinner /> awaiting payment
        </span>
        <span className="text-xs text-dim">
          expires in{" "}
          <span
            data-testid="dispersal-expiry"
            className={`tabular-nums ${minutes <= 2 ? "text-bad" : "text-accent"}`}
          >
            {plural(minutes, "minute")}
          </span>
        </span>
      </div>
      <FaucetButton
        address={dispersal.receiver}
        amount={dispersal.amount}
        label="[fund from faucet]"
        errorText={(error) => failureText(error, "Faucet payment failed")}
        onSent={onFunded}
      />
    </div>
  );
}
