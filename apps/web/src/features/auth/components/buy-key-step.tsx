import { useEffect, useEffectEvent, useRef, useState } from "react";
import toast from "react-hot-toast";
import { paymentDeadline, secondsLeft } from "../../../components/payment/payment-countdown.ts";
import { PaymentInstructions } from "../../../components/payment/payment-instructions.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { useNow } from "../../../hooks/use-now.ts";
import { ApiError, failureText } from "../../../lib/api-error.ts";
import { cancelKeyPayment } from "../api/cancel-key-payment.ts";
import { useKeyPaymentStatus } from "../api/get-key-payment-status.ts";
import { startKeyPayment } from "../api/start-key-payment.ts";
import { useAuth } from "../hooks/use-auth.ts";
import {
  clearKeyPurchase,
  type KeyPurchase,
  loadKeyPurchase,
  saveKeyPurchase,
} from "../utils/key-purchase.ts";
import { withReferralCode } from "../utils/with-referral-code.ts";
import { AuthModalTitle } from "./auth-modal-title.tsx";
import { KeyPriceSummary } from "./key-price-summary.tsx";

export const KEY_PURCHASE_MESSAGES = {
  initiateFailed: "Failed to initiate payment",
  expired: "Payment expired",
  cancelled: "Payment cancelled",
  cancelFailed: "Failed to cancel payment",
} as const;

/** open: waiting for BNB; closed: expired or cancelled; issued: its key went out over a day ago. */
type Phase = "open" | "received" | "closed" | "issued";

export interface BuyKeyStepProps {
  onBack: () => void;
  /** The bought key, already stored (unless `keepSession`). */
  onKey: (key: string) => void;
  /**
   * A code the user typed, sent as it is (the server's refusal is said, the code not dropped);
   * without it, the code a `?referral=` link left.
   */
  referralCode?: string;
  /**
   * Bought while logged in (the Account page): the new key goes to `onKey` without replacing
   * the stored one, and the purchase stays remembered until the caller clears it.
   */
  keepSession?: boolean;
}

/**
 * Buying an access key: the price (USD, less the referral discount) and the BNB it comes to,
 * the payment address with QR code and countdown, a status poll every 5 s. The open purchase
 * is remembered, so a reload picks it up; once paid the key is stored like a free one.
 */
export function BuyKeyStep({ onBack, onKey, referralCode, keepSession = false }: BuyKeyStepProps) {
  const { getDeviceId, saveSession } = useAuth();
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const [purchase, setPurchase] = useState<KeyPurchase | null>(loadKeyPurchase);
  const [phase, setPhase] = useState<Phase>("open");
  const [cancelling, setCancelling] = useState(false);
  const requested = useRef(false);

  useEffect(() => {
    void getDeviceId().then(setDeviceId);
  }, [getDeviceId]);

  const fail = useEffectEvent((error: unknown) => {
    if (!(error instanceof ApiError)) console.error(error);
    toast.error(KEY_PURCHASE_MESSAGES.initiateFailed);
    const reason = failureText(error, "");
    if (reason && reason !== KEY_PURCHASE_MESSAGES.initiateFailed) toast(reason);
    onBack();
  });

  useEffect(() => {
    if (purchase || !deviceId || requested.current) return;
    requested.current = true;
    const start = (code: string | undefined) => startKeyPayment(deviceId, code);
    const started =
      referralCode === undefined ? withReferralCode(start) : start(referralCode || undefined);
    started.then(({ success: _, ...opened }) => {
      saveKeyPurchase(opened);
      setPurchase(opened);
    }, fail);
  }, [purchase, deviceId, referralCode]);

  const waiting = purchase !== null && deviceId !== null && phase === "open";
  const status = useKeyPaymentStatus(purchase?.paymentId ?? "", deviceId ?? "", waiting);
  const now = useNow(1000, waiting);
  const left = purchase ? secondsLeft(paymentDeadline(purchase.expiresAt, now), now) : 0;

  const receive = useEffectEvent(async (key: string) => {
    if (keepSession) return onKey(key);
    // Stored before anything else (the server answers it again only for a day).
    await saveSession({ key, role: "user" });
    clearKeyPurchase();
    onKey(key);
  });
  const close = useEffectEvent((next: Phase) => {
    clearKeyPurchase();
    setPhase(next);
  });
  const lost = useEffectEvent((error: unknown) => {
    // The server no longer knows this purchase (another device, a wiped server).
    clearKeyPurchase();
    toast.error(failureText(error, KEY_PURCHASE_MESSAGES.initiateFailed));
    onBack();
  });

  useEffect(() => {
    const answer = status.data;
    if (!answer || phase !== "open") return;
    if (answer.key) {
      setPhase("received");
      void receive(answer.key);
    } else if (answer.isPaid && answer.keyIssued) close("issued");
    else if (answer.status === "expired" || answer.status === "cancelled") {
      close("closed");
      toast.error(KEY_PURCHASE_MESSAGES.expired);
    }
  }, [status.data, phase]);

  useEffect(() => {
    if (status.error instanceof ApiError && status.error.status === 404) lost(status.error);
  }, [status.error]);

  const cancel = async () => {
    if (!purchase || !deviceId || cancelling) return;
    setCancelling(true);
    try {
      await cancelKeyPayment(purchase.paymentId, deviceId);
      clearKeyPurchase();
      toast.success(KEY_PURCHASE_MESSAGES.cancelled);
      onBack();
    } catch (error) {
      // Paid meanwhile, for one: the poll brings the key.
      toast.error(failureText(error, KEY_PURCHASE_MESSAGES.cancelFailed));
      void status.refetch();
    } finally {
      setCancelling(false);
    }
  };

  return (
    <div className="flex flex-col gap-5" data-testid="buy-key-step">
      <AuthModalTitle>Buy an Access Key</AuthModalTitle>

      {!purchase && (
        <p className="flex items-center gap-2 text-dim" data-testid="payment-starting">
          <Spinner /> creating payment address...
        </p>
      )}

      {purchase && <KeyPriceSummary purchase={purchase} />}

      {purchase && phase === "open" && left > 0 && (
        <PaymentInstructions
          address={purchase.paymentAddress}
          amount={purchase.paymentAmount}
          secondsLeft={left}
          note="Your key appears here as soon as it arrives."
          faucetErrorText={(error) => failureText(error, "Faucet payment failed")}
          onFaucetSent={() => void status.refetch()}
          faucet
        />
      )}

      {purchase && phase === "open" && left === 0 && (
        <p className="flex items-center gap-2 text-dim" role="status" data-testid="payment-closing">
          <Spinner /> The payment window has closed: checking for a payment that arrived in time...
        </p>
      )}

      {phase === "received" && (
        <p className="flex items-center gap-2 text-ok" role="status">
          <Spinner /> Payment received: storing your key...
        </p>
      )}

      {phase === "closed" && (
        <p
          role="status"
          data-testid="payment-expired"
          className="rounded-sm border border-bad/50 bg-bad/10 px-3 py-3 text-bad"
        >
          Payment expired. Go back and buy again for a new payment address. Any BNB that arrives at
          the old address is refunded.
        </p>
      )}

      {phase === "issued" && (
        <p role="alert" className="rounded-sm border border-bad/50 bg-bad/10 px-3 py-3 text-bad">
          The key for this payment was already handed out. If you did not receive it, contact
          support with payment id {purchase?.paymentId}.
        </p>
      )}

      {phase === "open" ? (
        <Button
          variant="secondary"
          onClick={purchase ? cancel : onBack}
          busy={cancelling}
          busyLabel="cancelling..."
          className="self-center"
        >
          [cancel]
        </Button>
      ) : (
        phase !== "received" && (
          <Button variant="bracket" onClick={onBack} className="self-center">
            [back]
          </Button>
        )
      )}
    </div>
  );
}
