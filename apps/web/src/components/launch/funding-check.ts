import { type LaunchPlan, walletBalancesRoute } from "@bundler/shared";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../lib/api-client.ts";
import { formatBnb, toWei } from "../../lib/bnb.ts";

/** An address the launch needs more BNB at: what it does, and what it lacks to 4 decimals. */
export interface Shortfall {
  address: string;
  roles: string;
  /** BNB, 4 decimals, rounded up: never shown as less than is missing. */
  lacks: string;
}

const DISPLAY_UNIT = 10n ** 14n;

/** Every address of the plan that holds less than it must (an unknown balance counts as 0). */
export function shortfallsOf(plan: LaunchPlan, balances: ReadonlyMap<string, string>): Shortfall[] {
  return plan.funding.flatMap((entry) => {
    const missing =
      (toWei(entry.required) ?? 0n) - (toWei(balances.get(entry.address.toLowerCase())) ?? 0n);
    if (missing <= 0n) return [];
    const roundedUp = ((missing + DISPLAY_UNIT - 1n) / DISPLAY_UNIT) * DISPLAY_UNIT;
    return [{ address: entry.address, roles: entry.roles.join(", "), lacks: formatBnb(roundedUp) }];
  });
}

/**
 * What the execute confirmation checks before it lets a launch go: the balance of every address
 * the plan funds (the funding panel's data), read now, and who is short.
 */
export function useFundingCheck(plan: LaunchPlan | undefined) {
  const addresses = plan?.funding.map((entry) => entry.address) ?? [];
  const balances = useQuery({
    queryKey: ["wallets", "balances", "execute-check", addresses] as const,
    queryFn: async ({ signal }) => {
      const answer = await apiFetch(walletBalancesRoute, {
        body: { addresses },
        signal,
        silent: true,
      });
      return new Map(answer.balances.map((b) => [b.address.toLowerCase(), b.balance]));
    },
    enabled: addresses.length > 0,
    gcTime: 0,
  });
  return {
    shortfalls: plan && balances.data ? shortfallsOf(plan, balances.data) : null,
    checking: addresses.length > 0 && balances.isPending,
    failed: balances.isError,
  };
}
