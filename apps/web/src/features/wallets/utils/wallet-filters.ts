import type { WalletBalance } from "@bundler/shared";
import { toWei } from "../../../lib/bnb.ts";
import { toUnits } from "./token-amount.ts";

/** [has BNB]: wallets holding more than this much BNB (SPEC §5). */
export const HAS_BNB_THRESHOLD_WEI = 10n ** 15n; // 0.001 BNB

/** [non-empty]: the wallet holds any of the token. */
export const holdsTokens = (wallet: WalletBalance): boolean => toUnits(wallet.tokenUnits) > 0n;

/** [has BNB]: the wallet holds more than 0.001 BNB. */
export const hasBnb = (wallet: WalletBalance): boolean =>
  (toWei(wallet.bnbBalance) ?? 0n) > HAS_BNB_THRESHOLD_WEI;

/** The search box: a case-insensitive part of the address. */
export const matchesAddress = (wallet: WalletBalance, search: string): boolean =>
  wallet.address.toLowerCase().includes(search.trim().toLowerCase());

/** Token balances compared exactly (bigint), for sorting. */
export const compareTokens = (a: WalletBalance, b: WalletBalance): number => {
  const x = toUnits(a.tokenUnits);
  const y = toUnits(b.tokenUnits);
  return x === y ? 0 : x < y ? -1 : 1;
};
