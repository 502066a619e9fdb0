import { formatWeiAsBnb } from "@bundler/shared";
import { formatUsd } from "../../../lib/usd.ts";

/** Wei from the P&L answer (may be signed); anything unparsable counts as 0. */
export const weiOf = (value: string | null | undefined): bigint =>
  /^-?\d+$/.test(value ?? "") ? BigInt(value as string) : 0n;

// The price as whole millionths of a dollar, so wei x price stays in bigint.
const MICRO = 1_000_000n;
const WEI_PER_BNB = 10n ** 18n;

/**
 * Wei at `usdPerBnb` as dollars ("$1,234.56", "-$3.40"): the product is taken on bigint, only
 * the final cents become a number. Null price: null.
 *
 * @example
 * usdOfWei(10n ** 17n, 600); // "$60.00"
 */
export function usdOfWei(wei: bigint, usdPerBnb: number | null): string | null {
  if (usdPerBnb === null || !Number.isFinite(usdPerBnb)) return null;
  const micros = (wei * BigInt(Math.round(usdPerBnb * 1_000_000))) / WEI_PER_BNB;
  const cents = micros / (MICRO / 100n);
  return formatUsd(Number(cents) / 100);
}

/** Half the smallest amount 4 decimals show: below it, an amount would read 0.0000. */
const UNDER_SHOWN = 5n * 10n ** 13n;

/**
 * Wei as BNB to 4 decimals, without the unit; an amount that is not 0 but would read 0.0000
 * says so ("< 0.0001", "> -0.0001"), so it agrees with the cents shown beside it.
 *
 * @example
 * bnbFigure(20_000_000_000_000n) // "< 0.0001"
 * bnbFigure(10n ** 17n) // "0.1000"
 */
export const bnbFigure = (wei: bigint): string => {
  if (wei > 0n && wei < UNDER_SHOWN) return "< 0.0001";
  if (wei < 0n && wei > -UNDER_SHOWN) return "> -0.0001";
  return formatWeiAsBnb(wei);
};

/** Wei as BNB to 4 decimals with the unit; a signed figure keeps its sign ("-0.0123 BNB"). */
export const bnbOfWei = (wei: bigint): string => `${bnbFigure(wei)} BNB`;

/** A signed figure with "+" in front of a gain, for P&L lines. */
export const signedBnbOfWei = (wei: bigint): string =>
  `${wei >= UNDER_SHOWN ? "+" : ""}${bnbFigure(wei)} BNB`;

/** Wei as a plain number of BNB, for the chart's axis only (never for money shown as text). */
export const bnbNumber = (wei: bigint): number => Number(wei / 10n ** 10n) / 1e8;
