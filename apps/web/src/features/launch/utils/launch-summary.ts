import { LAUNCH_FEE_BNB } from "@bundler/shared";
import { fromWei, toWei } from "../../../lib/bnb.ts";
import type { BundleWallet } from "./launch-form.ts";

/** Display estimate: gas for one buy at a typical BSC gas price (not what is sent). */
export const GAS_PER_BUY_BNB = "0.0003";
/** Display estimate: gas for the token create. */
export const GAS_CREATE_BNB = "0.003";
/** Total supply in 18-decimal units (1e9 tokens). */
const SUPPLY_UNITS = 1e27;

export interface SummaryRow {
  address: string;
  buyValue: string;
  /** Percent of supply, or null when no quote is known. */
  sharePercent: number | null;
}

export interface LaunchSummary {
  rows: SummaryRow[];
  bundleBuys: string;
  creatorBuy: string;
  tip: string;
  gasEstimate: string;
  launchFee: string;
  total: string;
  /** Percent of supply the bundle wallets hold, or null if any quote is missing. */
  bundleSharePercent: number | null;
}

export const sharePercent = (tokenAmount: string | undefined): number | null =>
  tokenAmount && /^\d+$/.test(tokenAmount) ? (Number(tokenAmount) / SUPPLY_UNITS) * 100 : null;

const wei = (value: string) => toWei(value) ?? 0n;

/** What the launch costs and what the bundle holds (amounts exact, shares for display). */
export function summarizeLaunch(input: {
  wallets: readonly BundleWallet[];
  creatorBuy: string;
  tip: string;
}): LaunchSummary {
  const rows = input.wallets.map((wallet) => ({
    address: wallet.address,
    buyValue: wallet.buyValue,
    sharePercent: sharePercent(wallet.tokenAmount),
  }));
  const bundleBuys = rows.reduce((sum, row) => sum + wei(row.buyValue), 0n);
  const buys = BigInt(rows.length) + (wei(input.creatorBuy) > 0n ? 1n : 0n);
  const gas = wei(GAS_CREATE_BNB) + buys * wei(GAS_PER_BUY_BNB);
  const total = bundleBuys + wei(input.creatorBuy) + wei(input.tip) + gas + wei(LAUNCH_FEE_BNB);
  const shares = rows.map((row) => row.sharePercent);
  return {
    rows,
    bundleBuys: fromWei(bundleBuys),
    creatorBuy: fromWei(wei(input.creatorBuy)),
    tip: fromWei(wei(input.tip)),
    gasEstimate: fromWei(gas),
    launchFee: LAUNCH_FEE_BNB,
    total: fromWei(total),
    bundleSharePercent: shares.every((share) => share !== null)
      ? shares.reduce<number>((sum, share) => sum + (share ?? 0), 0)
      : null,
  };
}
