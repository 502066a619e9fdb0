/**
 * How amounts are shown to users, on both sides (SPEC §9: "Money shown with 4 decimals in
 * BNB"): the web's screens and the server's terminal lines use these, so a line and the screen
 * beside it read the same. Amounts a user must send exactly (a payment's "Send exactly …") are
 * not shown through these: they stay exact and copyable.
 */

/** Decimals shown of a BNB or token amount. */
export const DISPLAY_DECIMALS = 4;

const WEI_DECIMALS = 18;
const DISPLAY_UNIT = 10n ** BigInt(WEI_DECIMALS - DISPLAY_DECIMALS);
const DISPLAY_SCALE = 10n ** BigInt(DISPLAY_DECIMALS);

const group = (whole: bigint): string => whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/**
 * Wei as BNB with exactly 4 decimals, rounded half up on the exact integer (never through a
 * float).
 *
 * @example
 * formatWeiAsBnb(430_000_000_000_000_000n) // "0.4300"
 * formatWeiAsBnb(1_000_050_000_000_000_000n) // "1.0001"
 */
export function formatWeiAsBnb(wei: bigint): string {
  const negative = wei < 0n;
  const units = ((negative ? -wei : wei) + DISPLAY_UNIT / 2n) / DISPLAY_UNIT;
  const fraction = String(units % DISPLAY_SCALE).padStart(DISPLAY_DECIMALS, "0");
  return `${negative && units > 0n ? "-" : ""}${units / DISPLAY_SCALE}.${fraction}`;
}

/**
 * Wei as "{amount} BNB" for a sentence: 4 decimals, and "less than 0.0001 BNB" for an amount
 * above 0 that would read 0.0000.
 *
 * @example
 * bnbWords(10n ** 17n) // "0.1000 BNB"
 * bnbWords(5n) // "less than 0.0001 BNB"
 */
export function bnbWords(wei: bigint): string {
  if (wei > 0n && wei < DISPLAY_UNIT / 2n) return "less than 0.0001 BNB";
  return `${formatWeiAsBnb(wei)} BNB`;
}

/**
 * A token amount in its smallest units (18 decimals) for a sentence: the whole part in groups
 * of three and at most 4 decimals, rounded down (a balance is never said larger than it is),
 * trailing zeros dropped.
 *
 * @example
 * tokenWords(1_356_297_991_234_567_890_000_000n) // "1,356,297.9912"
 * tokenWords(99_999_999_999n * 10n ** 18n) // "99,999,999,999"
 */
export function tokenWords(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const scaled = abs / DISPLAY_UNIT;
  const fraction = String(scaled % DISPLAY_SCALE)
    .padStart(DISPLAY_DECIMALS, "0")
    .replace(/0+$/, "");
  const whole = group(scaled / DISPLAY_SCALE);
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/**
 * Wei as BNB with exactly 4 decimals, rounded up: for what an address must hold or lacks,
 * which is never shown as less than it is.
 *
 * @example
 * formatWeiAsBnbUp(23_020_000_000_000_000n) // "0.0231"
 * formatWeiAsBnbUp(23_000_000_000_000_000n) // "0.0230"
 */
export function formatWeiAsBnbUp(wei: bigint): string {
  if (wei <= 0n) return formatWeiAsBnb(wei);
  const units = (wei + DISPLAY_UNIT - 1n) / DISPLAY_UNIT;
  return formatWeiAsBnb(units * DISPLAY_UNIT);
}

/**
 * A count with its noun in the right number: the one way the app says "1 wallet" and
 * "2 wallets". `many` is for nouns whose plural is not the singular plus "s".
 *
 * @example
 * plural(1, "action") // "1 action"
 * plural(3, "action") // "3 actions"
 * plural(2, "key", "keys") // "2 keys"
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
}
