import { describe, expect, it } from "vitest";
import { formatDateTime } from "./format-date.ts";

describe("formatDateTime", () => {
  it("writes month short, day, year and time as the spec's example", () => {
    // A local time, so the test holds in any time zone.
    expect(formatDateTime(new Date(2026, 10, 24, 15, 4))).toBe("Nov 24, 2026, 3:04 PM");
  });

  it("reads ISO strings", () => {
    expect(formatDateTime(new Date(2026, 0, 2, 9, 30).toISOString())).toBe("Jan 2, 2026, 9:30 AM");
  });

  it("shows a dash for something that is not a date", () => {
    expect(formatDateTime("soon")).toBe("—");
  });
});
