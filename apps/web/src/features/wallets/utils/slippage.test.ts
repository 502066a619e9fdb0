import { SELL_SLIPPAGE_BPS } from "@bundler/shared";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_SLIPPAGE, slippageBps } from "./slippage.ts";

describe("the slippage field", () => {
  it("starts at the server's default of 5%", () => {
    expect(DEFAULT_SLIPPAGE).toBe("5");
    expect(slippageBps(DEFAULT_SLIPPAGE)).toBe(SELL_SLIPPAGE_BPS.default);
  });

  it("turns a percent with one decimal into basis points", () => {
    expect(slippageBps("0.1")).toBe(10);
    expect(slippageBps(".5")).toBe(50);
    expect(slippageBps("2.5")).toBe(250);
    expect(slippageBps(" 12 ")).toBe(1200);
    expect(slippageBps("50")).toBe(5000);
    expect(slippageBps("50.0")).toBe(5000);
  });

  it("refuses what is below 0.1, above 50, has two decimals or is not a number", () => {
    for (const bad of ["", "0", "0.0", "0.05", "50.1", "51", "100", "2.55", "-1", "1e1", "5%", "."])
      expect(slippageBps(bad), bad).toBeNull();
  });

  it("answers only whole tenths of a percent from 0.1 to 50, whatever is typed", () => {
    fc.assert(
      fc.property(fc.string(), (typed) => {
        const bps = slippageBps(typed);
        if (bps === null) return;
        expect(Number.isInteger(bps / 10)).toBe(true);
        expect(bps).toBeGreaterThanOrEqual(10);
        expect(bps).toBeLessThanOrEqual(5000);
      }),
    );
  });

  it("answers every tenth from 0.1 to 50 as typed", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), (tenths) => {
        const text = `${Math.floor(tenths / 10)}.${tenths % 10}`;
        expect(slippageBps(text)).toBe(tenths * 10);
      }),
    );
  });
});
