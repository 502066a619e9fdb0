import { type FundingNeed, type LaunchPlan, walletBalancesRoute } from "@bundler/shared";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../lib/api-client.ts";
import { type FundingRow, fundingRowsOf, needOf } from "./funding.ts";

/** An address the launch needs more BNB at: its row and what it holds against what it must. */
export interface Shortfall {
  row: FundingRow;
  need: FundingNeed;
}

/** Every address of the plan that holds less than it must (an unknown balance counts as 0). */
export function shortfallsOf(plan: LaunchPlan, balances: ReadonlyMap<string, string>): Shortfall[] {
  return fundingRowsOf(plan).flatMap((row) => {
    const need = needOf(row, balances);
    return need.missing > 0n ? [{ row, need }] : [];
  });
}

/**
 * What the execute confirmation checks before it lets a launch go: the balance of every address
 * the plan funds (the funding panel's data), read now, and who is short; `recheck` reads them
 * again (after funding).
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
    balances: balances.data,
    checking: addresses.length > 0 && balances.isPending,
    failed: balances.isError,
    recheck: () => balances.refetch(),
  };
}
