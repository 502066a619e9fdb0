import { describe, expect, it } from "vitest";
import {
  formatPercent,
  formatTokenCount,
  formatTokens,
  sharePercent,
  toUnits,
} from "./token-amount.ts";

const TOKEN = 10n ** 18n;

describe("token amounts", () => {
  it("shows units as tokens with separators and 4 decimals, rounded down", () => {
    expect(formatTokens(0n)).toBe("0.0000");
    expect(formatTokens(1234567n * TOKEN + 891_299_999_999_999_999n)).toBe("1,234,567.8912");
    expect(formatTokens(TOKEN / 10_000n - 1n)).toBe("0.0000");
    expect(formatTokens(10n ** 27n)).toBe("1,000,000,000.0000");
  });

  it("writes a count of 1,000 tokens or more in whole tokens, a smaller one with 4 decimals", () => {
    expect(formatTokenCount(89_691_053n * TOKEN + 227_700_000_000_000_000n)).toBe("89,691,053");
    expect(formatTokenCount(1_000n * TOKEN)).toBe("1,000");
    expect(formatTokenCount(999n * TOKEN + 500_000_000_000_000_000n)).toBe("999.5000");
  });

  it("reads unit strings, counting junk as 0", () => {
    expect(toUnits("123")).toBe(123n);
    expect(toUnits("1,2")).toBe(0n);
    expect(toUnits(undefined)).toBe(0n);
  });

  it("gives a share of supply to 4 decimals", () => {
    expect(sharePercent(25n, 1000n)).toBe(2.5);
    expect(sharePercent(1n, 3n)).toBe(33.3333);
    expect(sharePercent(5n, 0n)).toBe(0);
    expect(formatPercent(2.5)).toBe("2.5000%");
  });
});
