import { type FundingNeed, formatWeiAsBnbUp, fundingNeeds, type LaunchPlan } from "@bundler/shared";
import { fromWei, toWei } from "../../lib/bnb.ts";

/** Added to a faucet payment on top of what is missing, to spare. */
export const FAUCET_MARGIN_BNB = "0.01";

export interface FundingRow {
  /** What the address does in the launch, e.g. "deployer, tip payer". */
  role: string;
  address: string;
  /** BNB the address must hold before executing: its buys, fees, tips and their gas. */
  required: string;
}

/** The plan's funding list as the funding panel and the execute confirmation show it. */
export const fundingRowsOf = (plan: LaunchPlan): FundingRow[] =>
  plan.funding.map((entry) => ({
    role: entry.roles.join(", "),
    address: entry.address,
    required: entry.required,
  }));

/**
 * What an address holds against what it must (`fundingNeeds`, the one computation both pages
 * use); an unknown balance counts as nothing.
 */
export const needOf = (
  row: FundingRow,
  balances: ReadonlyMap<string, string> | undefined,
): FundingNeed =>
  fundingNeeds([{ address: row.address, roles: [row.role], required: row.required }], (address) =>
    balances?.get(address.toLowerCase()),
  )[0] as FundingNeed;

/** Whether an address holds less than it must (an unknown balance counts as nothing). */
export const isShort = (row: FundingRow, balances: ReadonlyMap<string, string> | undefined) =>
  needOf(row, balances).missing > 0n;

/** BNB an address must hold, as both pages show it: 4 decimals, rounded up. */
export const requiredShown = (need: FundingNeed): string => formatWeiAsBnbUp(need.required);

/** BNB an address lacks, as both pages show it: 4 decimals, rounded up. */
export const lacksShown = (need: FundingNeed): string => formatWeiAsBnbUp(need.missing);

/** The faucet payment that funds an address: what is missing plus the margin; null when funded. */
export function faucetAmount(required: string, balance: string | undefined): string | null {
  const [need] = fundingNeeds([{ address: "", roles: [], required }], () => balance);
  const missing = need?.missing ?? 0n;
  return missing > 0n ? fromWei(missing + (toWei(FAUCET_MARGIN_BNB) ?? 0n)) : null;
}
