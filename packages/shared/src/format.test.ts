import { describe, expect, it } from "vitest";
import { bnbWords, formatWeiAsBnb, formatWeiAsBnbUp, plural, tokenWords } from "./format.ts";

const ETHER = 10n ** 18n;

describe("amounts shown to users", () => {
  it("shows BNB with exactly 4 decimals, rounded half up on the exact wei", () => {
    expect(formatWeiAsBnb(430_000_000_000_000_000n)).toBe("0.4300");
    expect(formatWeiAsBnb(1_000_050_000_000_000_000n)).toBe("1.0001");
    expect(formatWeiAsBnb(1_000_049_999_999_999_999n)).toBe("1.0000");
    expect(formatWeiAsBnb(123_456_789n * ETHER + 123_456_789_123_456_789n)).toBe("123456789.1235");
    expect(formatWeiAsBnb(-15_000_000_000_000_000n)).toBe("-0.0150");
  });

  it("says a tiny BNB amount is less than 0.0001 instead of 0.0000", () => {
    expect(bnbWords(0n)).toBe("0.0000 BNB");
    expect(bnbWords(1n)).toBe("less than 0.0001 BNB");
    expect(bnbWords(50_000_000_000_000n)).toBe("0.0001 BNB");
    expect(bnbWords(12_345_678_901_234_567n)).toBe("0.0123 BNB");
  });

  it("shows tokens grouped with at most 4 decimals, rounded down, trailing zeros dropped", () => {
    expect(tokenWords(1_356_297_991_299_999_999_999_999n)).toBe("1,356,297.9912");
    expect(tokenWords(99_999_999_999n * ETHER)).toBe("99,999,999,999");
    expect(tokenWords(1_500_000_000_000_000_000n)).toBe("1.5");
    expect(tokenWords(99_999_999_999_999n)).toBe("0");
    expect(tokenWords(0n)).toBe("0");
  });

  it("rounds an amount to hold up to the next 0.0001 BNB, never down", () => {
    expect(formatWeiAsBnbUp(23_020_000_000_000_000n)).toBe("0.0231");
    expect(formatWeiAsBnbUp(23_000_000_000_000_000n)).toBe("0.0230");
    expect(formatWeiAsBnbUp(1n)).toBe("0.0001");
    expect(formatWeiAsBnbUp(0n)).toBe("0.0000");
  });

  it("says one of a thing in the singular and any other count in the plural", () => {
    expect(plural(1, "action")).toBe("1 action");
    expect(plural(0, "action")).toBe("0 actions");
    expect(plural(25, "action")).toBe("25 actions");
    expect(plural(1234, "wallet")).toBe("1,234 wallets");
    expect(plural(2, "key", "keys")).toBe("2 keys");
  });
});
