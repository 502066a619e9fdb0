import { QRCodeSVG } from "qrcode.react";
import type { ReactNode } from "react";
import { FaucetButton } from "../faucet-button.tsx";
import { CopyField } from "../ui/copy-field.tsx";
import { Spinner } from "../ui/spinner.tsx";
import { formatCountdown, PAYMENT_WARNING_SECONDS } from "./payment-countdown.ts";

export interface PaymentInstructionsProps {
  address: string;
  /** In BNB, exactly as it must be sent. */
  amount: string;
  /** Whole seconds left in the payment window. */
  secondsLeft: number;
  /** What follows "Send exactly {amount} BNB to the address below.". */
  note: ReactNode;
  /** The toast for a failed faucet payment. */
  faucetErrorText: (error: unknown) => string;
  /** After the faucet paid: look at the status now rather than at the next poll. */
  onFaucetSent: () => void;
  /** False where the caller cannot use the faucet (it needs an access key the payer lacks). */
  faucet?: boolean;
}

/**
 * An open payment: what to send where, as text, QR code and copy fields, the countdown (red
 * under a minute) and, on the local chain, [pay from faucet]. Used by every payment dialog.
 */
export function PaymentInstructions({
  address,
  amount,
  secondsLeft,
  note,
  faucetErrorText,
  onFaucetSent,
  faucet = true,
}: PaymentInstructionsProps) {
  return (
    <>
      <p className="text-dim">
        Send exactly <span className="text-fg">{amount} BNB</span> to the address below. {note}
      </p>
      <div className="flex justify-center">
        <div className="rounded-sm bg-white p-3" data-testid="payment-qr">
          <QRCodeSVG value={address} size={160} aria-label="Payment address QR code" />
        </div>
      </div>
      <CopyField
        label="Address"
        value={address}
        copyLabel="Copy payment address"
        data-testid="payment-address"
      />
      <CopyField
        label="Amount (BNB)"
        value={amount}
        copyLabel="Copy payment amount"
        data-testid="payment-amount"
      />
      <div className="flex items-center justify-between gap-3">
        <span className="flex items-center gap-2 text-xs text-dim">
          <Spinner /> waiting for payment
        </span>
        <span className="text-xs text-dim">
          expires in{" "}
          <span
            data-testid="payment-countdown"
            className={`tabular-nums ${secondsLeft < PAYMENT_WARNING_SECONDS ? "text-bad" : "text-accent"}`}
          >
            {formatCountdown(secondsLeft)}
          </span>
        </span>
      </div>
      {faucet && (
        <FaucetButton
          address={address}
          amount={amount}
          label="[pay from faucet]"
          errorText={faucetErrorText}
          onSent={onFaucetSent}
        />
      )}
    </>
  );
}
