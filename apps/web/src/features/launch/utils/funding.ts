import { fromWei, toWei } from "../../../lib/bnb.ts";
import type { BundleWallet } from "./launch-form.ts";
import { GAS_CREATE_BNB, GAS_PER_BUY_BNB } from "./launch-summary.ts";

/** Added to a faucet payment so the wallet can also pay its gas. */
export const FAUCET_GAS_BNB = "0.01";

export interface FundingRow {
  role: "deployer" | "tip payer" | "bundle";
  address: string;
  /** BNB the wallet needs to hold. */
  required: string;
}

const wei = (value: string) => toWei(value) ?? 0n;

/** What each launch wallet must hold: buys for bundle wallets; create + creator buy (+ tip) for the deployer. */
export function fundingRows(input: {
  wallets: readonly BundleWallet[];
  deployerAddress: string | null;
  tipPayerAddress: string | null;
  creatorBuy: string;
  tip: string;
}): FundingRow[] {
  const rows: FundingRow[] = [];
  if (input.deployerAddress) {
    const deployerNeeds =
      wei(GAS_CREATE_BNB) +
      wei(input.creatorBuy) +
      (wei(input.creatorBuy) > 0n ? wei(GAS_PER_BUY_BNB) : 0n) +
      (input.tipPayerAddress ? 0n : wei(input.tip));
    rows.push({
      role: "deployer",
      address: input.deployerAddress,
      required: fromWei(deployerNeeds),
    });
  }
  if (input.tipPayerAddress)
    rows.push({ role: "tip payer", address: input.tipPayerAddress, required: input.tip || "0" });
  for (const wallet of input.wallets)
    rows.push({ role: "bundle", address: wallet.address, required: wallet.buyValue || "0" });
  return rows;
}

/** The faucet payment that funds a wallet: what is missing plus gas; null when already funded. */
export function faucetAmount(required: string, balance: string | undefined): string | null {
  const missing = wei(required) - (toWei(balance) ?? 0n);
  return missing > 0n ? fromWei(missing + wei(FAUCET_GAS_BNB)) : null;
}
