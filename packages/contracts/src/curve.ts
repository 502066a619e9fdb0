/**
 * The launchpad's bonding curve in bigint: the exact math of contracts/BondingCurve.sol, so
 * an offline estimate (say, for the buys of a launch bundle, before the token exists) is
 * what the chain will do to the wei.
 */

export const TOTAL_SUPPLY = 1_000_000_000n * 10n ** 18n;
/** Tokens sold on the curve (80%): getTokenInfo's `maxOffers`. */
export const CURVE_SUPPLY = 800_000_000n * 10n ** 18n;
/** Tokens added to the DEX pair at graduation (20%). */
export const LIQUIDITY_SUPPLY = 200_000_000n * 10n ** 18n;
/** The constant product's virtual token reserve beyond the curve's supply. */
export const VIRTUAL_SUPPLY = 273_000_000n * 10n ** 18n;
/** Traded token amounts are multiples of this (else the launchpad reverts `GW`). */
export const GWEI_UNIT = 10n ** 9n;
export const FEE_DENOMINATOR = 10_000n;

export const DEFAULT_MAX_FUNDS = 24n * 10n ** 18n;
export const DEFAULT_TRADING_FEE_RATE = 100n;
export const DEFAULT_MIN_TRADING_FEE = 10n ** 14n;
export const DEFAULT_LAUNCH_FEE = 10n ** 16n;

/** What pricing needs to know about a token; the same names as getTokenInfo's fields. */
export interface CurveState {
  /** BNB raised when the whole curve is sold (the graduation size). */
  maxFunds: bigint;
  /** Tokens still on the curve. */
  offers: bigint;
  /** Basis points: 100n is 1%. */
  tradingFeeRate: bigint;
  minTradingFee: bigint;
}

/** A buy, with the token's state after it: the fields of `TokenPurchase`. */
export interface BuyQuote {
  amount: bigint;
  cost: bigint;
  fee: bigint;
  /** BNB returned to the buyer (only when the buy fills the curve). */
  refund: bigint;
  price: bigint;
  offers: bigint;
  funds: bigint;
}

/** A sell, with the token's state after it: the fields of `TokenSale`. */
export interface SellQuote {
  amount: bigint;
  /** What the curve pays for `amount`; the seller receives `proceeds - fee`. */
  proceeds: bigint;
  fee: bigint;
  price: bigint;
  offers: bigint;
  funds: bigint;
}

const CURVE_REVERTS = {
  ZA: "ZA: the trade buys or sells nothing",
  GW: "GW: amount is not a multiple of 1 gwei",
  SO: "SO: the sale's curve quote does not exceed its fee",
} as const;

/** Thrown where the launchpad would revert, with its revert string as `code`. */
export class CurveRevertError extends Error {
  override name = "CurveRevertError" as const;
  readonly code: keyof typeof CURVE_REVERTS;
  constructor(code: keyof typeof CURVE_REVERTS) {
    super(CURVE_REVERTS[code]);
    this.code = code;
  }
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** BNB in the curve's reserve once `sold` tokens have left it; `raisedAt(m, CURVE_SUPPLY) === m`. */
export const raisedAt = (maxFunds: bigint, sold: bigint): bigint =>
  (maxFunds * VIRTUAL_SUPPLY * sold) / (CURVE_SUPPLY * (CURVE_SUPPLY + VIRTUAL_SUPPLY - sold));

/** A `sold` position whose `raisedAt` does not exceed `target` (the real inverse, rounded down). */
export const soldAt = (maxFunds: bigint, target: bigint): bigint =>
  target >= maxFunds
    ? CURVE_SUPPLY
    : (target * CURVE_SUPPLY * (CURVE_SUPPLY + VIRTUAL_SUPPLY)) /
      (maxFunds * VIRTUAL_SUPPLY + target * CURVE_SUPPLY);

/** Marginal price in wei per whole token at `sold`: getTokenInfo's `lastPrice`. */
export const priceAt = (maxFunds: bigint, sold: bigint): bigint => {
  const left = CURVE_SUPPLY + VIRTUAL_SUPPLY - sold;
  const scaled = (maxFunds * VIRTUAL_SUPPLY * 10n ** 18n) / left;
  return (scaled * (CURVE_SUPPLY + VIRTUAL_SUPPLY)) / (CURVE_SUPPLY * left);
};

export const tradingFee = (amount: bigint, rate: bigint, minFee: bigint): bigint =>
  max((amount * rate) / FEE_DENOMINATOR, minFee);

/**
 * The trading fee `createToken` takes on the creator's pre-sale, on top of it:
 * `preSale × tradingFeeRate / 10000`, rounded down (four.meme's create guide and CLI).
 */
export const preSaleFee = (preSale: bigint, tradingFeeRate: bigint): bigint =>
  (preSale * tradingFeeRate) / FEE_DENOMINATOR;

/**
 * The BNB `createToken` takes: `launchFee + preSale + preSale × tradingFeeRate / 10000`, the
 * launchpad's `_launchFee()` and `_tradingFeeRate()` read at submit time. Less reverts
 * `Value`; more is refunded in the same transaction.
 *
 * @example
 * const value = createTokenValue({ launchFee, tradingFeeRate, preSale: parseEther("0.1") });
 */
export const createTokenValue = (p: {
  launchFee: bigint;
  tradingFeeRate: bigint;
  preSale: bigint;
}): bigint => p.launchFee + p.preSale + preSaleFee(p.preSale, p.tradingFeeRate);

/**
 * A fresh token's curve, before its first trade.
 *
 * @example
 * const state = newCurve({ maxFunds: parseEther("24") });
 */
export const newCurve = (params: Partial<Omit<CurveState, "offers">> = {}): CurveState => ({
  maxFunds: params.maxFunds ?? DEFAULT_MAX_FUNDS,
  offers: CURVE_SUPPLY,
  tradingFeeRate: params.tradingFeeRate ?? DEFAULT_TRADING_FEE_RATE,
  minTradingFee: params.minTradingFee ?? DEFAULT_MIN_TRADING_FEE,
});

const withState = (state: CurveState, sold: bigint) => ({
  price: priceAt(state.maxFunds, sold),
  offers: CURVE_SUPPLY - sold,
  funds: raisedAt(state.maxFunds, sold),
});

/**
 * `buyTokenAMAP` with `funds` BNB in total, fee included: below the curve's end all of
 * `funds` is spent; a buy that fills the curve takes what is left and refunds the rest.
 *
 * @example
 * let state = newCurve();
 * const creator = quoteBuyWithFunds(state, parseEther("1"));
 * state = { ...state, offers: creator.offers }; // the next buyer in the bundle
 */
export const quoteBuyWithFunds = (state: CurveState, funds: bigint): BuyQuote => {
  const { maxFunds, tradingFeeRate: rate, minTradingFee: minFee } = state;
  const sold = CURVE_SUPPLY - state.offers;
  const reserved = max((funds * rate) / (FEE_DENOMINATOR + rate), minFee);
  if (funds <= reserved) throw new CurveRevertError("ZA");
  const raised = raisedAt(maxFunds, sold);
  const reachable = soldAt(maxFunds, raised + funds - reserved);
  if (reachable <= sold) throw new CurveRevertError("ZA");
  const amount = reachable - sold - ((reachable - sold) % GWEI_UNIT);
  if (amount === 0n) throw new CurveRevertError("ZA");
  const cost = raisedAt(maxFunds, sold + amount) - raised;
  const fills = sold + amount === CURVE_SUPPLY;
  const fee = fills ? min(tradingFee(cost, rate, minFee), funds - cost) : funds - cost;
  return { amount, cost, fee, refund: funds - cost - fee, ...withState(state, sold + amount) };
};

/**
 * `buyToken` for exactly `amount` tokens (capped at what is left on the curve); send
 * `cost + fee` as msg.value.
 *
 * @example
 * const { cost, fee } = quoteBuyAmount(newCurve(), parseEther("1000000"));
 */
export const quoteBuyAmount = (state: CurveState, amount: bigint): BuyQuote => {
  if (amount === 0n) throw new CurveRevertError("ZA");
  if (amount % GWEI_UNIT !== 0n) throw new CurveRevertError("GW");
  const sold = CURVE_SUPPLY - state.offers;
  const bought = min(amount, state.offers);
  const cost = raisedAt(state.maxFunds, sold + bought) - raisedAt(state.maxFunds, sold);
  const fee = tradingFee(cost, state.tradingFeeRate, state.minTradingFee);
  return { amount: bought, cost, fee, refund: 0n, ...withState(state, sold + bought) };
};

/**
 * `sellToken` of `amount` tokens; the seller receives `proceeds - fee` (`SO` when that is
 * nothing). `proceeds` is the gross curve quote a router sale's `minFunds` is compared with.
 *
 * @example
 * const { proceeds, fee } = quoteSell(state, balance - (balance % GWEI_UNIT));
 */
export const quoteSell = (state: CurveState, amount: bigint): SellQuote => {
  if (amount === 0n) throw new CurveRevertError("ZA");
  if (amount % GWEI_UNIT !== 0n) throw new CurveRevertError("GW");
  const sold = CURVE_SUPPLY - state.offers;
  if (amount > sold) throw new RangeError(`cannot sell ${amount}: only ${sold} were sold`);
  const proceeds = raisedAt(state.maxFunds, sold) - raisedAt(state.maxFunds, sold - amount);
  const fee = tradingFee(proceeds, state.tradingFeeRate, state.minTradingFee);
  if (proceeds <= fee) throw new CurveRevertError("SO");
  return { amount, proceeds, fee, ...withState(state, sold - amount) };
};
