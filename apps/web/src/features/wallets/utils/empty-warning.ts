import type { WalletBalance } from "@bundler/shared";
import { formatCompactTokens, toUnits } from "./token-amount.ts";

/** What to ask before emptying wallets that still hold tokens. */
export interface EmptyWarning {
  /** Selected wallets that hold tokens. */
  holders: number;
  message: string;
}

/**
 * The question before an empty, when some of the `picked` wallets still hold tokens: emptied
 * of their BNB they have none left for the gas a sell needs. null when none holds any.
 *
 * @example
 * // "3 of the wallets still hold 7.3M WALK, which they cannot sell after this."
 */
export function emptyWarning(
  balances: readonly WalletBalance[],
  picked: readonly string[],
  ticker: string,
): EmptyWarning | null {
  const chosen = new Set(picked.map((address) => address.toLowerCase()));
  const holders = balances.filter(
    (wallet) => chosen.has(wallet.address.toLowerCase()) && toUnits(wallet.tokenUnits) > 0n,
  );
  if (holders.length === 0) return null;
  const held = holders.reduce((sum, wallet) => sum + toUnits(wallet.tokenUnits), 0n);
  const one = holders.length === 1;
  return {
    holders: holders.length,
    message: `${holders.length} of the wallets still ${one ? "holds" : "hold"} ${formatCompactTokens(held)} ${ticker}, which ${one ? "it" : "they"} cannot sell after this.`,
  };
}
