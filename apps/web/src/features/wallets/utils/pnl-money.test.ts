import { describe, expect, it } from "vitest";
import { bnbNumber, bnbOfWei, signedBnbOfWei, usdOfWei, weiOf } from "./pnl-money.ts";

const BNB = 10n ** 18n;

describe("P&L money", () => {
  it("reads signed wei and counts junk as 0", () => {
    expect(weiOf("-12")).toBe(-12n);
    expect(weiOf("12")).toBe(12n);
    expect(weiOf("1.5")).toBe(0n);
    expect(weiOf(null)).toBe(0n);
  });

  it("shows BNB to 4 decimals, a gain with a plus and a loss with a minus", () => {
    expect(bnbOfWei(123_456_789n * 10n ** 10n)).toBe("1.2346 BNB");
    expect(signedBnbOfWei(BNB / 10n)).toBe("+0.1000 BNB");
    expect(signedBnbOfWei(-BNB / 10n)).toBe("-0.1000 BNB");
    expect(signedBnbOfWei(0n)).toBe("0.0000 BNB");
  });

  it("prices wei in dollars at the app's BNB price, without a float on the wei", () => {
    expect(usdOfWei(BNB / 10n, 600)).toBe("$60.00");
    expect(usdOfWei(-BNB / 4n, 612.5)).toBe("-$153.12");
    expect(usdOfWei(123_456_789_000_000_000_000n, 600)).toBe("$74,074.07");
    expect(usdOfWei(BNB, null)).toBeNull();
  });

  it("gives the chart a number of BNB", () => {
    expect(bnbNumber(BNB + BNB / 2n)).toBe(1.5);
    expect(bnbNumber(-BNB)).toBe(-1);
  });
});
