import type { LaunchPlan } from "@bundler/shared";
import { fromWei, toWei } from "../../../lib/bnb.ts";

/** Added to a faucet payment on top of what is missing, to spare. */
export const FAUCET_MARGIN_BNB = "0.01";

export interface FundingRow {
  /** What the address does in the launch, e.g. "deployer, tip payer". */
  role: string;
  address: string;
  /** BNB the address must hold before executing: its buys, fees, tips and their gas. */
  required: string;
}

/** The plan's funding list as the funding panel shows it. */
export const fundingRowsOf = (plan: LaunchPlan): FundingRow[] =>
  plan.funding.map((entry) => ({
    role: entry.roles.join(", "),
    address: entry.address,
    required: entry.required,
  }));

const missingWei = (required: string, balance: string | undefined) =>
  (toWei(required) ?? 0n) - (toWei(balance) ?? 0n);

/** Whether an address holds less than it must (an unknown balance counts as nothing). */
export const isShort = (row: FundingRow, balances: ReadonlyMap<string, string> | undefined) =>
  missingWei(row.required, balances?.get(row.address.toLowerCase())) > 0n;

/** The faucet payment that funds an address: what is missing plus the margin; null when funded. */
export function faucetAmount(required: string, balance: string | undefined): string | null {
  const missing = missingWei(required, balance);
  return missing > 0n ? fromWei(missing + (toWei(FAUCET_MARGIN_BNB) ?? 0n)) : null;
}
