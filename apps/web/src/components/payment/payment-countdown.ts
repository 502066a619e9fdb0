import { PAYMENT_WINDOW_SECONDS } from "@bundler/shared";

/** Below this many seconds the countdown turns red. */
export const PAYMENT_WARNING_SECONDS = 60;

/** When the payment window closes, in ms: the server's expiresAt, else 600 s from `startedAt`. */
export function paymentDeadline(expiresAt: string | null | undefined, startedAt: number): number {
  const parsed = expiresAt ? Date.parse(expiresAt) : Number.NaN;
  return Number.isNaN(parsed) ? startedAt + PAYMENT_WINDOW_SECONDS * 1000 : parsed;
}

/** Whole seconds left, rounded up, never negative. */
export const secondsLeft = (deadline: number, now: number): number =>
  Math.max(0, Math.ceil((deadline - now) / 1000));

/** m:ss, e.g. 600 -> "10:00", 59 -> "0:59". */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}
