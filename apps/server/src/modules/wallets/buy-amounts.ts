import { randomInt } from "node:crypto";
import {
  type CurveState,
  GWEI_UNIT,
  newCurve,
  quoteBuyAmount,
  TOTAL_SUPPLY,
} from "@bundler/contracts";
import type { CurveOutlook } from "@bundler/shared";
import { type Address, parseEther } from "viem";
import { BadRequestError } from "../../lib/errors.ts";
import { quoteSequence, stepBuy, stepCreatorBuy } from "../launch/curve-sequence.ts";

export interface BuyRange {
  minBuyAmount: string;
  maxBuyAmount: string;
  isPercentage: boolean;
}

/** Percent inputs are read to this many decimals (1e-6 %). */
export const PERCENT_SCALE = 1_000_000n;

export const parsePercent = (value: string): bigint => {
  const [whole = "0", fraction = ""] = value.split(".");
  return BigInt(whole) * PERCENT_SCALE + BigInt(fraction.slice(0, 6).padEnd(6, "0"));
};

/** A uniform bigint in [lo, hi]. */
export type RandomBigint = (lo: bigint, hi: bigint) => bigint;

export const randomBigint: RandomBigint = (lo, hi) => {
  if (hi <= lo) return lo;
  const span = hi - lo + 1n;
  const bytes = Math.ceil(span.toString(16).length / 2) + 8;
  const buffer = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) buffer[i] = randomInt(256);
  return lo + (BigInt(`0x${buffer.toString("hex")}`) % span);
};

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
const ceilGwei = (wei: bigint) => ceilDiv(wei, GWEI_UNIT) * GWEI_UNIT;

/**
 * The least gwei-aligned BNB whose `buyTokenAMAP` gets at least `tokens`, searched below
 * `enough` (which does): AMAP reserves its fee differently from `buyToken` near the minimum
 * fee, so pricing by `quoteBuyAmount` alone can overshoot the asked share.
 */
const leastFundsFor = (state: CurveState, tokens: bigint, enough: bigint): bigint => {
  const gets = (gwei: bigint) => stepBuy(state, gwei * GWEI_UNIT).amount >= tokens;
  let lo = 1n;
  let hi = enough / GWEI_UNIT;
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (gets(mid)) hi = mid;
    else lo = mid + 1n;
  }
  return hi * GWEI_UNIT;
};

/** The token range [lo, hi] (gwei-aligned units) a percent range asks for. */
export const percentTokens = (range: BuyRange): { lo: bigint; hi: bigint } => {
  const lo = ceilDiv(
    TOTAL_SUPPLY * parsePercent(range.minBuyAmount),
    100n * PERCENT_SCALE * GWEI_UNIT,
  );
  const hi = (TOTAL_SUPPLY * parsePercent(range.maxBuyAmount)) / (100n * PERCENT_SCALE) / GWEI_UNIT;
  return { lo: lo * GWEI_UNIT, hi: (hi >= lo ? hi : lo) * GWEI_UNIT };
};

/**
 * One wallet's buy value, BNB wei:
 * - BNB: a random gwei-aligned amount in [min, max] (min itself when the range holds no whole gwei).
 * - Percent of total supply: a random token amount in [min %, max %], priced on the curve as
 *   it stands when this wallet buys (`state`), rounded up to gwei. Past the curve's end the
 *   wallet takes what is left; once it is sold out, a fresh curve's price stands in (the
 *   launch plan flags such a buy).
 */
export const pickBuyValue = (
  range: BuyRange,
  state: CurveState,
  random: RandomBigint = randomBigint,
): bigint => {
  if (range.isPercentage) {
    const { lo, hi } = percentTokens(range);
    const tokens = random(lo / GWEI_UNIT, hi / GWEI_UNIT) * GWEI_UNIT;
    if (tokens === 0n) return 0n;
    const on = state.offers > 0n ? state : newCurve(state);
    // quoteBuyAmount takes at most what is left on the curve.
    const quote = quoteBuyAmount(on, tokens);
    const enough = ceilGwei(quote.cost + quote.fee);
    if (quote.amount < tokens) return enough;
    return leastFundsFor(on, tokens, enough);
  }
  const lo = parseEther(range.minBuyAmount);
  const hi = parseEther(range.maxBuyAmount);
  const loG = ceilDiv(lo, GWEI_UNIT);
  const hiG = hi / GWEI_UNIT;
  return hiG >= loG ? random(loG, hiG) * GWEI_UNIT : lo;
};

export const checkRange = (range: BuyRange): void => {
  const lo = range.isPercentage ? parsePercent(range.minBuyAmount) : parseEther(range.minBuyAmount);
  const hi = range.isPercentage ? parsePercent(range.maxBuyAmount) : parseEther(range.maxBuyAmount);
  if (lo > hi)
    throw new BadRequestError("Minimum buy amount cannot be greater than maximum buy amount");
  if (range.isPercentage && hi > 100n * PERCENT_SCALE)
    throw new BadRequestError("A buy cannot be more than 100% of the supply");
};

export interface GenerateBuysParameters {
  addresses: readonly Address[];
  range: BuyRange;
  curve: Omit<CurveState, "offers">;
  /** The creator's buy (preSale), which runs before every wallet's, its fee on top. */
  creatorBuy: bigint;
  /** Held back from the bundle: it buys after everyone else. */
  sniper: Address | null;
}

/**
 * A random buy for each wallet, picked and quoted in the order the launch runs them (creator,
 * bundle wallets in order, then the sniper), so a percent buy is priced where the curve will
 * be and each `tokenAmount` is what that wallet will get.
 */
export const generateBuys = (
  params: GenerateBuysParameters,
  random: RandomBigint = randomBigint,
): {
  buys: Array<{ address: Address; buyValue: bigint; tokenAmount: bigint }>;
  outlook: CurveOutlook;
} => {
  const isSniper = (a: Address) => params.sniper?.toLowerCase() === a.toLowerCase();
  const order = [
    ...params.addresses.map((a, i) => ({ a, i })).filter(({ a }) => !isSniper(a)),
    ...params.addresses.map((a, i) => ({ a, i })).filter(({ a }) => isSniper(a)),
  ];
  const values = new Map<number, bigint>();
  let state = stepCreatorBuy(params.curve, params.creatorBuy).state;
  for (const { i } of order) {
    const value = pickBuyValue(params.range, state, random);
    values.set(i, value);
    state = stepBuy(state, value).state;
  }
  const wallets = params.addresses.map((address, i) => ({
    address,
    buyValue: values.get(i) ?? 0n,
  }));
  const sequence = quoteSequence({
    curve: params.curve,
    preSale: params.creatorBuy,
    wallets,
    sniper: params.sniper,
  });
  return {
    buys: wallets.map((w, i) => ({ ...w, tokenAmount: sequence.wallets[i]?.amount ?? 0n })),
    outlook: sequence.outlook,
  };
};
