import type { WalletBalance } from "@bundler/shared";
import { shortAddress } from "../../../lib/short-address.ts";
import { sharePercent, toUnits } from "./token-amount.ts";

/** Who holds how much of the token's supply at one moment, in percent. */
export interface SupplySnapshot {
  wallets: { address: string; percent: number }[];
  /** Every bundle wallet together. */
  bundlePercent: number;
  /** The developer wallet, when the bundle has one. */
  developerPercent: number | null;
}

/** The shares of supply the balances give. */
export function supplySnapshot(
  balances: readonly WalletBalance[],
  developer: WalletBalance | null,
  totalSupply: string,
): SupplySnapshot {
  const supply = toUnits(totalSupply);
  const held = balances.reduce((sum, wallet) => sum + toUnits(wallet.tokenUnits), 0n);
  return {
    wallets: balances.map((wallet) => ({
      address: wallet.address,
      percent: sharePercent(toUnits(wallet.tokenUnits), supply),
    })),
    bundlePercent: sharePercent(held, supply),
    developerPercent: developer ? sharePercent(toUnits(developer.tokenUnits), supply) : null,
  };
}

/** One bar group of the chart: a wallet's share now and, after a sell, before it. */
export interface ShareRow {
  address: string;
  label: string;
  now: number;
  before?: number;
}

/**
 * The chart's rows: the wallets that hold (or, before the last sell, held) any of the token,
 * in the bundle's order, then the developer's.
 */
export function shareRows(
  current: SupplySnapshot,
  before: SupplySnapshot | null,
  developerAddress: string | null,
): ShareRow[] {
  const earlier = new Map(before?.wallets.map((w) => [w.address.toLowerCase(), w.percent]));
  const rows: ShareRow[] = [];
  for (const wallet of current.wallets) {
    const then = earlier.get(wallet.address.toLowerCase());
    if (wallet.percent <= 0 && !then) continue;
    rows.push({
      address: wallet.address,
      label: shortAddress(wallet.address),
      now: wallet.percent,
      ...(before ? { before: then ?? 0 } : {}),
    });
  }
  const devNow = current.developerPercent ?? 0;
  const devThen = before?.developerPercent ?? 0;
  if (developerAddress && (devNow > 0 || devThen > 0)) {
    rows.push({
      address: developerAddress,
      label: "developer",
      now: devNow,
      ...(before ? { before: devThen } : {}),
    });
  }
  return rows;
}
