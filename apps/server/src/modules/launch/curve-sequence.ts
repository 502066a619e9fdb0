import {
  CurveRevertError,
  type CurveState,
  newCurve,
  preSaleFee,
  quoteBuyWithFunds,
  TOTAL_SUPPLY,
} from "@bundler/contracts";
import { bnbWords, type CurveOutlook } from "@bundler/shared";
import { type Address, formatUnits } from "viem";

export type BuyOutcome = "none" | "bought" | "fills" | "soldOut" | "tooSmall";

export interface BuyStep {
  /** Tokens bought (18-decimal units). */
  amount: bigint;
  outcome: BuyOutcome;
  /** The curve after the buy. */
  state: CurveState;
}

/** One `buyTokenAMAP` of `funds` on `state`, quoted offline with the launchpad's exact math. */
export const stepBuy = (state: CurveState, funds: bigint): BuyStep => {
  if (funds <= 0n) return { amount: 0n, outcome: "none", state };
  if (state.offers === 0n) return { amount: 0n, outcome: "soldOut", state };
  try {
    const quote = quoteBuyWithFunds(state, funds);
    return {
      amount: quote.amount,
      outcome: quote.offers === 0n ? "fills" : "bought",
      state: { ...state, offers: quote.offers },
    };
  } catch (error) {
    if (error instanceof CurveRevertError) return { amount: 0n, outcome: "tooSmall", state };
    throw error;
  }
};

/**
 * The creator's buy inside the create: `preSale` spent on the curve with the launchpad's fee
 * on it on top (create guide §4), one `buyTokenAMAP` of both.
 */
export const stepCreatorBuy = (curve: Omit<CurveState, "offers">, preSale: bigint): BuyStep =>
  stepBuy(newCurve(curve), preSale + preSaleFee(preSale, curve.tradingFeeRate));

/** Percent of the total supply, to 4 decimals ("1.2345"). */
export const sharePercent = (tokens: bigint): string =>
  formatUnits((tokens * 100n * 10_000n) / TOTAL_SUPPLY, 4);

export interface SequenceInput {
  curve: Omit<CurveState, "offers">;
  /** The creator's buy inside the create (preSale; the fee on it comes on top). */
  preSale: bigint;
  wallets: ReadonlyArray<{ address: Address; buyValue: bigint }>;
  /** The delayed-bundle sniper: quoted after the bundle. */
  sniper: Address | null;
}

export interface SequenceResult {
  creator: BuyStep;
  /** In the order of `input.wallets`. */
  wallets: Array<BuyStep & { delayed: boolean }>;
  outlook: CurveOutlook;
}

const same = (a: string, b: string | null) => b !== null && a.toLowerCase() === b.toLowerCase();

/**
 * Every buy of a launch in the order the chain runs them: the creator's buy inside the create,
 * then each bundle wallet in order, then the delayed sniper. Flags a bundle that fills the
 * curve (the token graduates in the launch block) or buys after it is sold out (the chain
 * layer refuses such a launch), and buys too small to get any token.
 */
export const quoteSequence = (input: SequenceInput): SequenceResult => {
  const creator = stepCreatorBuy(input.curve, input.preSale);
  let state = creator.state;
  const steps = new Map<number, BuyStep & { delayed: boolean }>();
  const order = input.wallets.map((wallet, index) => ({ ...wallet, index }));
  const bundled = order.filter((w) => !same(w.address, input.sniper));
  const delayed = order.filter((w) => same(w.address, input.sniper));
  for (const wallet of [...bundled, ...delayed]) {
    const step = stepBuy(state, wallet.buyValue);
    state = step.state;
    steps.set(wallet.index, { ...step, delayed: same(wallet.address, input.sniper) });
  }
  const wallets = order.map((w) => steps.get(w.index) as BuyStep & { delayed: boolean });
  return { creator, wallets, outlook: outlookOf(input, creator, wallets) };
};

const outlookOf = (
  input: SequenceInput,
  creator: BuyStep,
  wallets: Array<BuyStep & { delayed: boolean }>,
): CurveOutlook => {
  const named = wallets.map((step, i) => ({ ...step, who: `wallet ${input.wallets[i]?.address}` }));
  const inBundle = [{ ...creator, delayed: false, who: "the creator" }, ...named].filter(
    (s) => !s.delayed,
  );
  const warnings: string[] = [];
  const soldOut = inBundle.filter((s) => s.outcome === "soldOut");
  const filler = inBundle.find((s) => s.outcome === "fills");
  if (soldOut.length > 0)
    warnings.push(
      `The curve is sold out before the buy of ${soldOut[0]?.who}${soldOut.length > 1 ? ` and ${soldOut.length - 1} more` : ""}, so the launch would be refused: lower the buy amounts.`,
    );
  else if (filler)
    warnings.push(
      `The buy of ${filler.who} fills the curve: the token graduates to the DEX in the launch block and the rest of that buy's BNB is refunded.`,
    );
  const tooSmall = inBundle.filter((s) => s.outcome === "tooSmall");
  if (tooSmall.length > 0)
    warnings.push(
      `The buy of ${tooSmall[0]?.who}${tooSmall.length > 1 ? ` and ${tooSmall.length - 1} more` : ""} is too small to get any token (each buy pays at least ${bnbWords(input.curve.minTradingFee)} of fee), so the launch would fail: raise it or set it to 0.`,
    );
  const late = named.find((s) => s.delayed && s.outcome === "soldOut");
  if (late)
    warnings.push(
      `The curve is sold out by the time ${late.who} makes its delayed buy: it will buy on the DEX instead.`,
    );
  return {
    graduates: Boolean(filler),
    soldOut: soldOut.length > 0,
    warning: warnings.length > 0 ? warnings.join(" ") : null,
  };
};
