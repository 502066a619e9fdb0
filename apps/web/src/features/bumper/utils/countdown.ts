/** "2m 05s" until `at`, "now" once it has passed; null without a time. */
export function countdownText(at: string | null, now: number): string | null {
  if (!at) return null;
  const seconds = Math.max(0, Math.ceil((Date.parse(at) - now) / 1000));
  if (Number.isNaN(seconds)) return null;
  if (seconds === 0) return "now";
  const minutes = Math.floor(seconds / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return minutes > 0 ? `${minutes}m ${rest}s` : `${seconds}s`;
}

/** Milliseconds until the first second of the next minute (when the BNB price is read again). */
export const msToNextMinute = (now: number): number => 60_000 - (now % 60_000);
