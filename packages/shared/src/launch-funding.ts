import { parseEther } from "viem";

/** An address a launch plan funds: what it does and the BNB (decimal) it must hold. */
export interface FundedAddress {
  address: string;
  roles: readonly string[];
  required: string;
}

/** One funded address against its balance, in wei. */
export interface FundingNeed {
  address: string;
  roles: readonly string[];
  required: bigint;
  held: bigint;
  /** What it lacks: required − held, 0 when it holds enough. */
  missing: bigint;
}

/** A BNB decimal string as wei; an unknown or unreadable balance holds nothing. */
const weiOf = (value: string | undefined | null): bigint => {
  const text = (value ?? "").trim();
  if (!/^\d+(\.\d+)?$/.test(text)) return 0n;
  const [whole = "0", fraction = ""] = text.split(".");
  return parseEther(fraction ? `${whole}.${fraction.slice(0, 18)}` : whole);
};

/**
 * Each address of a launch plan's funding list against what it holds: the one computation of
 * what a launch lacks, for the create page's funding panel and the drafts page's execute
 * confirmation alike (shown with `formatWeiAsBnbUp`, so both say the same figure).
 *
 * @example
 * fundingNeeds(plan.funding, (address) => balances.get(address.toLowerCase()))
 *   .filter((need) => need.missing > 0n);
 */
export function fundingNeeds(
  funding: readonly FundedAddress[],
  balanceOf: (address: string) => string | undefined | null,
): FundingNeed[] {
  return funding.map((entry) => {
    const required = weiOf(entry.required);
    const held = weiOf(balanceOf(entry.address));
    return {
      address: entry.address,
      roles: entry.roles,
      required,
      held,
      missing: required > held ? required - held : 0n,
    };
  });
}
