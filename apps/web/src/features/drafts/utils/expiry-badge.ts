import { plural } from "@bundler/shared";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export type ExpiryTone = "red" | "amber";

export interface ExpiryBadge {
  text: string;
  tone: ExpiryTone;
}

/**
 * The drafts card's expiry badge (SPEC §4): nothing while more than 7 days remain;
 * under 24 h "Expires in {h}h" (or "Expired" when no time is left), red; up to 3 days
 * "Expires in N day(s)", red; otherwise "Expires in N days", amber. Partial hours and
 * days round up, so the badge never claims less time than is left.
 *
 * @example
 * getExpiryBadge("2025-01-02T00:00:00Z", Date.parse("2025-01-01T18:00:00Z"));
 * // { text: "Expires in 6h", tone: "red" }
 */
export function getExpiryBadge(expiresAt: string | null, now: number): ExpiryBadge | null {
  if (!expiresAt) return null;
  const expiry = Date.parse(expiresAt);
  if (Number.isNaN(expiry)) return null;
  const remaining = expiry - now;
  if (remaining > 7 * DAY_MS) return null;
  if (remaining <= 0) return { text: "Expired", tone: "red" };
  if (remaining < DAY_MS) {
    return { text: `Expires in ${Math.ceil(remaining / HOUR_MS)}h`, tone: "red" };
  }
  const days = Math.ceil(remaining / DAY_MS);
  const text = `Expires in ${plural(days, "day")}`;
  return { text, tone: remaining <= 3 * DAY_MS ? "red" : "amber" };
}
