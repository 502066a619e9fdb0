import { describe, expect, it } from "vitest";
import { formatCountdown, paymentDeadline, secondsLeft } from "./payment-countdown.ts";

describe("paymentDeadline", () => {
  it("uses the server's expiry", () => {
    expect(paymentDeadline("2025-01-01T00:10:00.000Z", 0)).toBe(
      Date.parse("2025-01-01T00:10:00.000Z"),
    );
  });

  it("falls back to 600 s from the start", () => {
    expect(paymentDeadline(null, 1_000)).toBe(601_000);
    expect(paymentDeadline("not a date", 0)).toBe(600_000);
  });
});

describe("secondsLeft", () => {
  it("rounds up and stops at zero", () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 9_001)).toBe(1);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 20_000)).toBe(0);
  });
});

describe("formatCountdown", () => {
  it("prints m:ss", () => {
    expect(formatCountdown(600)).toBe("10:00");
    expect(formatCountdown(59)).toBe("0:59");
    expect(formatCountdown(61)).toBe("1:01");
    expect(formatCountdown(0)).toBe("0:00");
    expect(formatCountdown(-3)).toBe("0:00");
  });
});
