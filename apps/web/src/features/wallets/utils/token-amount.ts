/** Token amounts: whole smallest units (18 decimals) as bigint, shown with 4 decimals. */

export const TOKEN_DECIMALS = 18;
const UNIT = 10n ** BigInt(TOKEN_DECIMALS);
const SHOWN_DECIMALS = 4;
const grouping = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** A units string from the server as bigint; anything unparsable counts as 0. */
export const toUnits = (value: string | null | undefined): bigint =>
  /^\d+$/.test(value ?? "") ? BigInt(value as string) : 0n;

/**
 * Units as tokens with thousands separators and 4 decimals, rounded down so a balance is never
 * shown larger than it is.
 *
 * @example
 * formatTokens(1234567_891234567890000000n); // "1,234,567.8912"
 */
export function formatTokens(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / UNIT;
  const scale = 10n ** BigInt(TOKEN_DECIMALS - SHOWN_DECIMALS);
  const fraction = ((abs % UNIT) / scale).toString().padStart(SHOWN_DECIMALS, "0");
  return `${negative ? "-" : ""}${grouping.format(whole)}.${fraction}`;
}

/** From this many whole tokens on, a count's decimals are noise: it is written in whole tokens. */
const WHOLE_FROM = 1_000n * UNIT;

/**
 * A count of tokens for a summary: whole tokens (rounded down) from 1,000 on, where decimals
 * are noise; below, `formatTokens`' 4 decimals.
 *
 * @example
 * formatTokenCount(89_691_053_227_700_000_000_000_000n); // "89,691,053"
 * formatTokenCount(999_500_000_000_000_000_000n); // "999.5000"
 */
export function formatTokenCount(units: bigint): string {
  const abs = units < 0n ? -units : units;
  if (abs < WHOLE_FROM) return formatTokens(units);
  return `${units < 0n ? "-" : ""}${grouping.format(abs / UNIT)}`;
}

/**
 * `units` as a percent of `total`, to 4 decimals (0 when there is no supply).
 *
 * @example
 * sharePercent(25n, 1000n); // 2.5
 */
export function sharePercent(units: bigint, total: bigint): number {
  if (total <= 0n) return 0;
  return Number((units * 1_000_000n) / total) / 10_000;
}

/** A percent for display: "12.3456%". */
export const formatPercent = (percent: number): string => `${percent.toFixed(4)}%`;

/**
 * A token amount the server wrote for display ("1,234.567891234567891234", "14,902,465.224")
 * with exactly 4 decimals, rounded down: the way `formatTokens` writes the wallet table's, so a
 * dialog and the table beside it read alike (SPEC §9).
 *
 * @example
 * tokensShown("1,234.567891"); // "1,234.5678"
 * tokensShown("14,902,465.224"); // "14,902,465.2240"
 */
export const tokensShown = (display: string): string => {
  const [whole = "0", fraction = ""] = display.split(".");
  return `${whole}.${fraction.slice(0, SHOWN_DECIMALS).padEnd(SHOWN_DECIMALS, "0")}`;
};

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

/**
 * Units as a short round figure for a sentence: "7.3M", "12K", "0.5".
 *
 * @example
 * formatCompactTokens(7_300_000n * 10n ** 18n); // "7.3M"
 */
export function formatCompactTokens(units: bigint): string {
  const scale = 10n ** BigInt(TOKEN_DECIMALS - SHOWN_DECIMALS);
  return compact.format(Number(units / scale) / 10 ** SHOWN_DECIMALS);
}
