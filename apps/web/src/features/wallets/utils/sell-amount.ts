/** The sell amount input (SPEC §5 "Sell/empty"): what it accepts and what is sent. */

export type SellUnit = "tokens" | "percent";

/** Quick buttons: a percent of each selected wallet's balance. */
export const QUICK_PERCENTS = [25, 50, 75, 100] as const;

// Digits with at most one point; the token's 18 decimals at most. No sign: a "-" is refused.
const AMOUNT_INPUT = /^\d*(\.\d{0,18})?$/;

/**
 * The input's next value, or null to keep the current one: empty is allowed; a negative, junk,
 * or (as a percent) anything above 100 is refused silently.
 *
 * @example
 * acceptAmountInput("101", "percent"); // null
 * acceptAmountInput("", "tokens"); // ""
 */
export function acceptAmountInput(next: string, unit: SellUnit): string | null {
  const text = next.trim();
  if (!AMOUNT_INPUT.test(text)) return null;
  if (unit === "percent" && text !== "" && text !== "." && Number(text) > 100) return null;
  return text;
}

/**
 * What the server is sent: the amount as a plain decimal ("0.5", "12"), or null when there is
 * nothing to sell (empty, a lone point, zero).
 *
 * @example
 * sellAmountValue(".50"); // "0.50"
 * sellAmountValue("0"); // null
 */
export function sellAmountValue(amount: string): string | null {
  const text = amount.trim();
  if (!/^\d*(\.\d*)?$/.test(text) || !/\d/.test(text)) return null;
  const [whole = "", fraction = ""] = text.split(".");
  const normalized = `${whole.replace(/^0+(?=\d)/, "") || "0"}${fraction ? `.${fraction}` : ""}`;
  return /[1-9]/.test(normalized) ? normalized : null;
}

/** Switching units keeps the amount unless it is no longer a valid percent. */
export const amountForUnit = (amount: string, unit: SellUnit): string =>
  acceptAmountInput(amount, unit) ?? "";
