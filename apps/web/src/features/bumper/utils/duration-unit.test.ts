import { describe, expect, it } from "vitest";
import { clampDuration, maxDurationIn, toMinutes } from "./duration-unit.ts";

describe("toMinutes", () => {
  it("converts seconds, minutes and hours to minutes", () => {
    expect(toMinutes("90", "seconds")).toBe(1.5);
    expect(toMinutes("30", "minutes")).toBe(30);
    expect(toMinutes("2", "hours")).toBe(120);
  });

  it("reads a blank value as not a number", () => {
    expect(toMinutes(" ", "minutes")).toBeNaN();
  });
});

describe("clampDuration", () => {
  it("clamps a duration longer than a day to one day in its new unit", () => {
    expect(clampDuration("30", "hours")).toBe("24");
    expect(clampDuration("2000", "minutes")).toBe("1440");
  });

  it("keeps a duration that fits within a day", () => {
    expect(clampDuration("30", "seconds")).toBe("30");
    expect(clampDuration("24", "hours")).toBe("24");
  });

  it("says a day is 86400 seconds", () => {
    expect(maxDurationIn("seconds")).toBe(86_400);
  });
});
