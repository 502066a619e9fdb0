import fc from "fast-check";
import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import {
  CURVE_SUPPLY,
  type CurveState,
  GWEI_UNIT,
  newCurve,
  priceAt,
  quoteBuyAmount,
  quoteBuyWithFunds,
  quoteSell,
  raisedAt,
  soldAt,
} from "./curve.ts";

describe("the bonding curve", () => {
  it("raises exactly maxFunds when all 800M tokens are sold", () => {
    for (const maxFunds of [parseEther("24"), parseEther("18"), parseEther("1"), 12_345_678_901n]) {
      expect(raisedAt(maxFunds, CURVE_SUPPLY)).toBe(maxFunds);
      expect(raisedAt(maxFunds, 0n)).toBe(0n);
    }
  });

  it("never lets soldAt overshoot its target, and rises in price as it sells", () => {
    const maxFunds = parseEther("24");
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: maxFunds }), (target) => {
        const sold = soldAt(maxFunds, target);
        expect(raisedAt(maxFunds, sold)).toBeLessThanOrEqual(target);
        if (sold < CURVE_SUPPLY)
          expect(priceAt(maxFunds, sold + GWEI_UNIT)).toBeGreaterThanOrEqual(
            priceAt(maxFunds, sold),
          );
      }),
    );
    expect(priceAt(maxFunds, CURVE_SUPPLY)).toBeGreaterThan(priceAt(maxFunds, 0n) * 10n);
  });

  it("spends all of a buy's funds below the curve's end and charges at least 1% or the minimum fee", () => {
    const state = newCurve();
    const small = quoteBuyWithFunds(state, parseEther("0.005"));
    expect(small.cost + small.fee).toBe(parseEther("0.005"));
    expect(small.fee).toBeGreaterThanOrEqual(state.minTradingFee);
    const big = quoteBuyWithFunds(state, parseEther("2"));
    expect(big.cost + big.fee).toBe(parseEther("2"));
    expect(big.fee).toBeGreaterThanOrEqual(big.cost / 100n);
    expect(big.fee - big.cost / 100n).toBeLessThan(parseEther("0.000001"));
    expect(big.amount % GWEI_UNIT).toBe(0n);
  });

  it("fills the curve with what is left and refunds the rest", () => {
    const quote = quoteBuyWithFunds(newCurve(), parseEther("30"));
    expect(quote).toMatchObject({
      amount: CURVE_SUPPLY,
      cost: parseEther("24"),
      fee: parseEther("0.24"),
      offers: 0n,
    });
    expect(quote.refund).toBe(parseEther("30") - parseEther("24.24"));
  });

  it("refuses zero amounts, funds that only cover the fee, and amounts off the gwei grid", () => {
    const state = newCurve();
    expect(() => quoteBuyWithFunds(state, state.minTradingFee)).toThrow(/ZA/);
    expect(() => quoteBuyAmount(state, 0n)).toThrow(/ZA/);
    expect(() => quoteBuyAmount(state, GWEI_UNIT + 1n)).toThrow(/GW/);
    expect(() => quoteSell({ ...state, offers: 0n }, GWEI_UNIT - 1n)).toThrow(/GW/);
  });

  it("keeps the reserve equal to raisedAt(sold) over any trade sequence, so no wei appears or vanishes", () => {
    const trade = fc.oneof(
      fc.record({
        kind: fc.constant("funds" as const),
        value: fc.bigInt({ min: 1n, max: parseEther("5") }),
      }),
      fc.record({
        kind: fc.constant("amount" as const),
        value: fc.bigInt({ min: 1n, max: 10n ** 17n }),
      }),
      fc.record({ kind: fc.constant("sell" as const), value: fc.integer({ min: 1, max: 100 }) }),
    );
    fc.assert(
      fc.property(fc.array(trade, { maxLength: 30 }), (trades) => {
        let state: CurveState = newCurve({ maxFunds: parseEther("10") });
        let reserve = 0n;
        let held = 0n;
        for (const t of trades) {
          if (state.offers === 0n) break;
          try {
            if (t.kind === "sell") {
              const amount = ((held * BigInt(t.value)) / 100n / GWEI_UNIT) * GWEI_UNIT;
              const q = quoteSell(state, amount);
              expect(q.fee).toBeLessThanOrEqual(q.proceeds);
              reserve -= q.proceeds;
              held -= amount;
              state = { ...state, offers: q.offers };
            } else {
              const q =
                t.kind === "funds"
                  ? quoteBuyWithFunds(state, t.value)
                  : quoteBuyAmount(state, t.value * GWEI_UNIT);
              if (t.kind === "funds") expect(q.cost + q.fee + q.refund).toBe(t.value);
              reserve += q.cost;
              held += q.amount;
              state = { ...state, offers: q.offers };
            }
          } catch (error) {
            if (!(error instanceof Error && error.name === "CurveRevertError")) throw error;
          }
          expect(reserve).toBe(raisedAt(state.maxFunds, CURVE_SUPPLY - state.offers));
          expect(held).toBe(CURVE_SUPPLY - state.offers);
        }
      }),
      { numRuns: 200 },
    );
  });
});
