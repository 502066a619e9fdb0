import { describe, expect, it } from "vitest";
import { getExpiryBadge } from "./expiry-badge.ts";

const NOW = Date.parse("2025-06-01T12:00:00Z");
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();

describe("getExpiryBadge", () => {
  it("shows nothing without an expiry or with an unreadable one", () => {
    expect(getExpiryBadge(null, NOW)).toBeNull();
    expect(getExpiryBadge("soon", NOW)).toBeNull();
  });

  it("shows nothing while more than 7 days remain", () => {
    expect(getExpiryBadge(at(7 * DAY + 1), NOW)).toBeNull();
    expect(getExpiryBadge(at(30 * DAY), NOW)).toBeNull();
  });

  it("shows amber days from 7 days down to just over 3", () => {
    expect(getExpiryBadge(at(7 * DAY), NOW)).toEqual({ text: "Expires in 7 days", tone: "amber" });
    expect(getExpiryBadge(at(3 * DAY + 1), NOW)).toEqual({
      text: "Expires in 4 days",
      tone: "amber",
    });
  });

  it("shows red days from 3 days down to 24 hours, singular for one day", () => {
    expect(getExpiryBadge(at(3 * DAY), NOW)).toEqual({ text: "Expires in 3 days", tone: "red" });
    expect(getExpiryBadge(at(DAY + 1), NOW)).toEqual({ text: "Expires in 2 days", tone: "red" });
    expect(getExpiryBadge(at(DAY), NOW)).toEqual({ text: "Expires in 1 day", tone: "red" });
  });

  it("shows red hours under 24 hours, rounding up", () => {
    expect(getExpiryBadge(at(DAY - 1), NOW)).toEqual({ text: "Expires in 24h", tone: "red" });
    expect(getExpiryBadge(at(6 * HOUR), NOW)).toEqual({ text: "Expires in 6h", tone: "red" });
    expect(getExpiryBadge(at(60_000), NOW)).toEqual({ text: "Expires in 1h", tone: "red" });
  });

  it("shows Expired in red when no time is left", () => {
    expect(getExpiryBadge(at(0), NOW)).toEqual({ text: "Expired", tone: "red" });
    expect(getExpiryBadge(at(-5 * DAY), NOW)).toEqual({ text: "Expired", tone: "red" });
  });

  it("never shows a badge for more than 7 days, whatever the instant", () => {
    for (let ms = -2 * DAY; ms <= 9 * DAY; ms += 37 * 60_000) {
      const badge = getExpiryBadge(at(ms), NOW);
      expect(badge === null).toBe(ms > 7 * DAY);
      if (badge && ms > 0) expect(badge.text).toMatch(/^Expires in \d+(h| days?)$/);
    }
  });
});
