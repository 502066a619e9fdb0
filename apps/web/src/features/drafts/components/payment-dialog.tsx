import { FALLBACK_PAYMENT_AMOUNT_BNB } from "@bundler/shared";
import { useEffect, useEffectEvent, useId, useRef, useState } from "react";
import toast from "react-hot-toast";
import { paymentDeadline } from "../../../components/payment/payment-countdown.ts";
import { PaymentInstructions } from "../../../components/payment/payment-instructions.tsx";
import { usePaymentWindow } from "../../../components/payment/use-payment-window.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Modal } from "../../../components/ui/modal.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { failureText } from "../api/draft-request.ts";
import { usePaymentStatus } from "../api/get-payment-status.ts";
import { startPayment } from "../api/start-payment.ts";
import type { DraftHeader } from "../utils/draft-status.ts";

/** After the fee arrives, the confirmation stays this long before the dialog hands back. */
const PAID_CALLBACK_MS = 2000;
const PAID_MESSAGE = "Payment confirmed! You can now launch your token from the drafts page.";
const INITIATE_FAILED = "Failed to initiate payment";
const PAYMENT_EXPIRED = "Payment expired";

interface PaymentDetails {
  address: string;
  amount: string;
  deadline: number;
}

export interface PaymentDialogProps {
  draft: DraftHeader;
  /** Called 2 s after the fee is confirmed. */
  onPaid: () => void;
  onClose: () => void;
}

/** The amount the server named, else SPEC §9's fallback. */
const amountOrFallback = (amount: string | null | undefined): string =>
  amount || FALLBACK_PAYMENT_AMOUNT_BNB;

/** An open payment the dialog can pick up again without asking for a new address. */
function resumable(draft: DraftHeader): PaymentDetails | null {
  if (draft.status !== "pending_payment") return null;
  if (!draft.paymentAddress || !draft.paymentExpiresAt) return null;
  const deadline = Date.parse(draft.paymentExpiresAt);
  if (Number.isNaN(deadline) || deadline - Date.now() < 5000) return null;
  return { address: draft.paymentAddress, amount: amountOrFallback(draft.paymentAmount), deadline };
}

/** "Payment for Launch": address, amount, QR, countdown; polls until paid or expired. */
export function PaymentDialog({ draft, onPaid, onClose }: PaymentDialogProps) {
  const titleId = useId();
  const [payment, setPayment] = useState<PaymentDetails | null>(() => resumable(draft));
  const [phase, setPhase] = useState<"pending" | "paid" | "expired">("pending");
  const requested = useRef(false);

  const fail = useEffectEvent((error: unknown) => {
    toast.error(INITIATE_FAILED);
    // The spec's toast is exact; the server's reason, when it gave one, follows on its own.
    const reason = failureText(error, "");
    if (reason) toast(reason);
    onClose();
  });

  useEffect(() => {
    if (payment || requested.current) return;
    requested.current = true;
    const startedAt = Date.now();
    startPayment(draft._id).then(
      (answer) =>
        setPayment({
          address: answer.paymentAddress,
          amount: amountOrFallback(answer.paymentAmount),
          deadline: paymentDeadline(answer.expiresAt, startedAt),
        }),
      fail,
    );
  }, [draft._id, payment]);

  const waiting = payment !== null && phase === "pending";
  const status = usePaymentStatus(draft._id, waiting);
  const refetchStatus = status.refetch;
  const left = usePaymentWindow({
    deadline: payment?.deadline ?? null,
    waiting,
    checkPaid: async () => (await refetchStatus()).data?.isPaid === true,
    onExpired: () => {
      setPhase((current) => (current === "pending" ? "expired" : current));
      toast.error(PAYMENT_EXPIRED);
    },
  });

  const handOver = useEffectEvent(onPaid);
  useEffect(() => {
    if (!status.data?.isPaid || phase === "paid") return;
    setPhase("paid");
    toast.success(PAID_MESSAGE);
  }, [status.data?.isPaid, phase]);
  useEffect(() => {
    if (phase !== "paid") return;
    const timer = setTimeout(handOver, PAID_CALLBACK_MS);
    return () => clearTimeout(timer);
  }, [phase]);

  return (
    <Modal labelledBy={titleId} windowTitle="pay --launch-fee" data-testid="payment-dialog">
      <div className="flex flex-col gap-5">
        <div className="flex flex-col gap-1">
          <h2 id={titleId} className="text-lg font-semibold text-fg">
            Payment for Launch
          </h2>
          <p className="text-dim">
            {draft.tokenInfo.name} ({draft.tokenInfo.symbol})
          </p>
        </div>

        {!payment && (
          <p className="flex items-center gap-2 text-dim" data-testid="payment-starting">
            <Spinner /> creating payment address...
          </p>
        )}

        {payment && phase === "paid" && (
          <p
            role="status"
            data-testid="payment-confirmed"
            className="rounded-sm border border-ok/50 bg-ok/10 px-3 py-3 text-ok"
          >
            {PAID_MESSAGE}
          </p>
        )}

        {payment && phase === "expired" && (
          <p
            role="status"
            data-testid="payment-expired"
            className="rounded-sm border border-bad/50 bg-bad/10 px-3 py-3 text-bad"
          >
            Payment expired. Close this window and press Pay again for a new payment address. Any
            BNB that arrives at the old address is refunded.
          </p>
        )}

        {payment && phase === "pending" && (
          <PaymentInstructions
            address={payment.address}
            amount={payment.amount}
            secondsLeft={left}
            note="The draft becomes Paid as soon as it arrives."
            faucetErrorText={(error) => failureText(error, "Faucet payment failed")}
            onFaucetSent={() => void refetchStatus()}
          />
        )}

        <div className="flex justify-end">
          <Button variant="secondary" onClick={onClose}>
            [close]
          </Button>
        </div>
      </div>
    </Modal>
  );
}
