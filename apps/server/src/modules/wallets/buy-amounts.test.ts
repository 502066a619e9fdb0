import { CURVE_SUPPLY, GWEI_UNIT, priceAt } from "@bundler/contracts";
import fc from "fast-check";
import { type Address, formatEther, parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { DEFAULT_CURVE } from "../../lib/chain-context.ts";
import { type BuyRange, checkRange, generateBuys, percentTokens } from "./buy-amounts.ts";

const address = (i: number) => `0x${(i + 1).toString(16).padStart(40, "0")}` as Address;
const addresses = (count: number) => Array.from({ length: count }, (_, i) => address(i));

/** BNB amounts as the API takes them: 0 to 2 BNB with up to 18 decimals. */
const bnbWei = fc.bigInt({ min: 0n, max: parseEther("2") });
const bnbRange = fc.tuple(bnbWei, bnbWei).map(([a, b]): BuyRange => {
  const [lo, hi] = a <= b ? [a, b] : [b, a];
  return { minBuyAmount: formatEther(lo), maxBuyAmount: formatEther(hi), isPercentage: false };
});
/** Percents with up to 6 decimals; small enough that a few wallets never empty the curve. */
const percent = fc.integer({ min: 1_000, max: 3_000_000 });
const percentRange = fc.tuple(percent, percent).map(([a, b]): BuyRange => {
  const [lo, hi] = a <= b ? [a, b] : [b, a];
  const text = (v: number) => `${Math.floor(v / 1e6)}.${String(v % 1e6).padStart(6, "0")}`;
  return { minBuyAmount: text(lo), maxBuyAmount: text(hi), isPercentage: true };
});
/** What one gwei buys at the curve's cheapest point, plus the token rounding unit. */
const TOKENS_PER_GWEI = (GWEI_UNIT * 10n ** 18n) / priceAt(DEFAULT_CURVE.maxFunds, 0n) + GWEI_UNIT;
const creatorBuy = fc.bigInt({ min: 0n, max: parseEther("1") }).map((v) => v - (v % GWEI_UNIT));

const generate = (range: BuyRange, count: number, preSale = 0n, sniper: Address | null = null) =>
  generateBuys({
    addresses: addresses(count),
    range,
    curve: DEFAULT_CURVE,
    creatorBuy: preSale,
    sniper,
  });

describe("buy amount generation", () => {
  it("keeps every BNB buy within [min, max] and gwei-aligned when the range holds a whole gwei", () => {
    fc.assert(
      fc.property(bnbRange, fc.integer({ min: 1, max: 12 }), (range, count) => {
        const lo = parseEther(range.minBuyAmount);
        const hi = parseEther(range.maxBuyAmount);
        const aligned = (lo + GWEI_UNIT - 1n) / GWEI_UNIT <= hi / GWEI_UNIT;
        for (const { buyValue } of generate(range, count).buys) {
          if (aligned) {
            expect(buyValue >= lo && buyValue <= hi).toBe(true);
            expect(buyValue % GWEI_UNIT).toBe(0n);
          } else expect(buyValue).toBe(lo);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("buys each percent wallet its share of supply within [min %, max %], priced where the curve will be", () => {
    fc.assert(
      fc.property(percentRange, fc.integer({ min: 1, max: 8 }), creatorBuy, (range, n, preSale) => {
        const { lo, hi } = percentTokens(range);
        const { buys, outlook } = generate(range, n, preSale);
        expect(outlook.soldOut).toBe(false);
        for (const { buyValue, tokenAmount } of buys) {
          expect(buyValue % GWEI_UNIT).toBe(0n);
          // The buy value is the least whole gwei that gets the share, so the wallet may get
          // up to one gwei's worth of tokens more than asked, never less.
          expect(tokenAmount >= lo).toBe(true);
          expect(tokenAmount <= hi + TOKENS_PER_GWEI).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("charges a later wallet more for the same share, because the bundle buys in sequence", () => {
    const range: BuyRange = { minBuyAmount: "2", maxBuyAmount: "2", isPercentage: true };
    const values = generate(range, 5, parseEther("0.5")).buys.map((b) => b.buyValue);
    for (let i = 1; i < values.length; i++)
      expect(values[i] as bigint).toBeGreaterThan(values[i - 1] as bigint);
  });

  it("gives a later wallet fewer tokens for the same BNB, and the creator's buy comes first", () => {
    const range: BuyRange = { minBuyAmount: "0.5", maxBuyAmount: "0.5", isPercentage: false };
    const alone = generate(range, 3).buys.map((b) => b.tokenAmount);
    const after = generate(range, 3, parseEther("1")).buys.map((b) => b.tokenAmount);
    expect((alone[0] as bigint) > (alone[1] as bigint)).toBe(true);
    expect((alone[1] as bigint) > (alone[2] as bigint)).toBe(true);
    expect((after[0] as bigint) < (alone[0] as bigint)).toBe(true);
  });

  it("quotes the delayed sniper after the whole bundle, whatever its place in the list", () => {
    const range: BuyRange = { minBuyAmount: "0.5", maxBuyAmount: "0.5", isPercentage: false };
    const plain = generate(range, 3).buys;
    const sniped = generate(range, 3, 0n, address(0)).buys;
    expect(sniped[1]?.tokenAmount).toBe(plain[0]?.tokenAmount);
    expect(sniped[2]?.tokenAmount).toBe(plain[1]?.tokenAmount);
    expect(sniped[0]?.tokenAmount).toBe(plain[2]?.tokenAmount);
  });

  it("flags a bundle that sells the curve out, and one whose buy fills it", () => {
    const big: BuyRange = { minBuyAmount: "20", maxBuyAmount: "20", isPercentage: true };
    const soldOut = generate(big, 5);
    expect(soldOut.outlook).toMatchObject({ soldOut: true, graduates: true });
    expect(soldOut.outlook.warning).toMatch(/sold out before the buy of wallet 0x0+5/);
    expect(soldOut.buys[4]?.tokenAmount).toBe(0n);
    const fills = generate(big, 4);
    expect(fills.outlook).toMatchObject({ soldOut: false, graduates: true });
    expect(fills.outlook.warning).toMatch(/fills the curve/);
    const sum = fills.buys.reduce((s, b) => s + b.tokenAmount, 0n);
    expect(sum).toBe(CURVE_SUPPLY);
  });

  it("refuses an inverted range and more than 100% with the spec's words", () => {
    expect(() => checkRange({ minBuyAmount: "2", maxBuyAmount: "1", isPercentage: false })).toThrow(
      "Minimum buy amount cannot be greater than maximum buy amount",
    );
    expect(() =>
      checkRange({ minBuyAmount: "1", maxBuyAmount: "101", isPercentage: true }),
    ).toThrow("A buy cannot be more than 100% of the supply");
  });
});
