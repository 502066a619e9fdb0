import { DISPLAY_DECIMALS, formatWeiAsBnb } from "@bundler/shared";
import { formatEther, parseEther } from "viem";

/** A BNB decimal string as wei; anything unparsable (empty, negative, junk) counts as null. */
export function toWei(value: string | undefined | null): bigint | null {
  const text = (value ?? "").trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return null;
  const [whole = "0", fraction = ""] = text.split(".");
  return parseEther(fraction ? `${whole}.${fraction.slice(0, 18)}` : whole);
}

/** Wei back to an exact decimal string (what is sent on the wire). */
export const fromWei = (wei: bigint): string => formatEther(wei);

/** Sums BNB decimal strings exactly; unparsable entries count as 0. */
export const sumBnb = (values: readonly (string | undefined)[]): string =>
  fromWei(values.reduce((total, value) => total + (toWei(value) ?? 0n), 0n));

/** Money is shown with this many decimals (SPEC §9). */
export const BNB_DISPLAY_DECIMALS = DISPLAY_DECIMALS;

/**
 * The one way the app shows a BNB amount: 4 decimals (SPEC §9), rounded half up on the exact
 * wei, so large or long amounts never pass through a float (the server's terminal lines use
 * the same rule, `formatWeiAsBnb` in `@bundler/shared`). Unparsable shows "—".
 * Amounts a user must send exactly (a payment's "Send exactly") are not rounded: they are shown
 * as the server gave them.
 *
 * @example
 * formatBnb("0.43") // "0.4300"
 * formatBnb("1.00005") // "1.0001"
 */
export function formatBnb(value: string | bigint | undefined | null): string {
  const wei = typeof value === "bigint" ? value : toWei(value);
  return wei === null ? "—" : formatWeiAsBnb(wei);
}
