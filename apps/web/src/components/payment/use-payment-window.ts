import { useEffect, useEffectEvent, useRef } from "react";
import { useNow } from "../../hooks/use-now.ts";
import { secondsLeft } from "./payment-countdown.ts";

export interface PaymentWindowOptions {
  /** When the window closes (ms since the epoch), or null before the address is known. */
  deadline: number | null;
  /** True while the payment is open and not seen paid: the countdown runs only then. */
  waiting: boolean;
  /** One last look at the status when the countdown reaches 0: true when it was paid after all. */
  checkPaid: () => Promise<boolean>;
  /** Called once, when the countdown reached 0 and the last look found nothing paid. */
  onExpired: () => void;
}

/**
 * A payment's countdown (whole seconds left, ticking each second while waiting). At 0 it looks
 * once more, since a payment the server saw at the wire still counts, then calls `onExpired`.
 */
export function usePaymentWindow({
  deadline,
  waiting,
  checkPaid,
  onExpired,
}: PaymentWindowOptions): number {
  const running = waiting && deadline !== null;
  const now = useNow(1000, running);
  const left = deadline === null ? 0 : secondsLeft(deadline, now);
  const check = useEffectEvent(checkPaid);
  const expire = useEffectEvent(onExpired);
  const expiring = useRef(false);

  useEffect(() => {
    if (!running || left > 0 || expiring.current) return;
    expiring.current = true;
    void check().then((paid) => {
      if (!paid) expire();
    });
  }, [running, left]);

  return left;
}
