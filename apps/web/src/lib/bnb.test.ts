import { describe, expect, it } from "vitest";
import { formatBnb, sumBnb, toWei } from "./bnb.ts";

describe("bnb amounts", () => {
  it("parses decimal strings to wei and rejects junk", () => {
    expect(toWei("0.1")).toBe(100_000_000_000_000_000n);
    expect(toWei("1")).toBe(10n ** 18n);
    expect(toWei("-1")).toBeNull();
    expect(toWei("")).toBeNull();
    expect(toWei("abc")).toBeNull();
  });

  it("sums exactly where floats would drift", () => {
    expect(sumBnb(["0.1", "0.2"])).toBe("0.3");
    expect(sumBnb(["0.000000000000000001", "1", undefined, "x"])).toBe("1.000000000000000001");
  });

  it("formats with 4 decimals", () => {
    expect(formatBnb("0.5")).toBe("0.5000");
    expect(formatBnb(12_345_678_000_000_000n)).toBe("0.0123");
    expect(formatBnb(undefined)).toBe("—");
  });

  it("rounds half up on the exact amount, never through a float", () => {
    expect(formatBnb("1.00005")).toBe("1.0001");
    expect(formatBnb("1.000049999999999999")).toBe("1.0000");
    expect(formatBnb("0.00001")).toBe("0.0000");
    expect(formatBnb("0.99995")).toBe("1.0000");
    expect(formatBnb("123456789.123456789123456789")).toBe("123456789.1235");
    expect(formatBnb("0")).toBe("0.0000");
    expect(formatBnb(-15_000_000_000_000_000n)).toBe("-0.0150");
  });
});
