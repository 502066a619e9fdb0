import { SELL_SLIPPAGE_BPS } from "@bundler/shared";

/** The slippage field as it starts: the server's default, 5%. */
export const DEFAULT_SLIPPAGE = String(SELL_SLIPPAGE_BPS.default / 100);

/** What a bad slippage says; nothing is sent while it shows. */
export const SLIPPAGE_PROBLEM =
  "Slippage must be a percent from 0.1 to 50, with at most one decimal (e.g. 5 or 2.5).";

// Digits with at most one decimal: "5", "0.5", ".5", "12.5".
const SLIPPAGE_TEXT = /^(\d{1,2}(\.\d)?|\.\d)$/;

/**
 * The slippage field's percent as the basis points a sell sends, or null when it is not a
 * percent from 0.1 to 50 with at most one decimal. Whole tenths only, so no float rounding.
 *
 * @example
 * slippageBps("5"); // 500
 * slippageBps("0.1"); // 10
 * slippageBps("0.05"); // null
 */
export function slippageBps(text: string): number | null {
  const trimmed = text.trim();
  if (!SLIPPAGE_TEXT.test(trimmed)) return null;
  const [whole = "", tenth = "0"] = trimmed.split(".");
  const bps = Number(whole || "0") * 100 + Number(tenth) * 10;
  return bps >= SELL_SLIPPAGE_BPS.min && bps <= SELL_SLIPPAGE_BPS.max ? bps : null;
}
