import type { LaunchPlan } from "@bundler/shared";
import { useEffect, useMemo, useRef } from "react";
import toast from "react-hot-toast";
import { fundingRowsOf, isShort } from "../../../components/launch/funding.ts";
import { useBalances } from "../api/get-balances.ts";
import type { BundleWallet } from "../utils/launch-form.ts";
import { hasMissingFunds } from "../utils/main-action.ts";

export const BALANCE_POLL_MS = 10_000;
export const ALL_FUNDED = "All wallets are funded";
export const REFRESH_FAILED = "Failed to refresh balances";

/** Every bundle wallet, then the plan's other addresses (deployer, tip payer), once each. */
function addressesOf(wallets: readonly BundleWallet[], plan: LaunchPlan | undefined): string[] {
  const all = [...wallets.map((w) => w.address), ...(plan?.funding.map((f) => f.address) ?? [])];
  const seen = new Set<string>();
  return all.filter((address) => {
    const key = address.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Balances of every launch address in one request, against what the server's plan says each
 * must hold; polled every 10 s while one is short, with a success toast when the last one is
 * funded. Until a plan is known (or when it failed), a bundle wallet holding less than its buy
 * value is what counts as short.
 */
export function useWalletFunding(
  plan: LaunchPlan | undefined,
  wallets: readonly BundleWallet[],
  enabled: boolean,
) {
  const rows = useMemo(() => (plan ? fundingRowsOf(plan) : []), [plan]);
  const addresses = useMemo(() => addressesOf(wallets, plan), [wallets, plan]);
  const hasAmounts = wallets.some((wallet) => Number(wallet.buyValue) > 0);

  const pending = useRef(true);
  const query = useBalances(addresses, {
    enabled: enabled && hasAmounts,
    refetchInterval: () => (pending.current ? BALANCE_POLL_MS : false),
  });
  const balances = query.data;
  const missingFunds = plan
    ? rows.some((row) => isShort(row, balances))
    : hasMissingFunds(wallets, balances ?? new Map());
  pending.current = missingFunds;

  // Only fetched balances count here: the previous set's, shown while a new address is being
  // asked for, would report that address short.
  const fetched = balances !== undefined && !query.isPlaceholderData;
  const wasMissing = useRef<boolean | null>(null);
  useEffect(() => {
    if (!fetched) return;
    if (wasMissing.current === true && !missingFunds && wallets.length > 0)
      toast.success(ALL_FUNDED);
    wasMissing.current = missingFunds;
  }, [fetched, missingFunds, wallets.length]);

  useEffect(() => {
    if (query.isError && query.errorUpdateCount > 0)
      toast.error(REFRESH_FAILED, { id: REFRESH_FAILED });
  }, [query.isError, query.errorUpdateCount]);

  return {
    rows,
    balances,
    missingFunds,
    hasAmounts,
    refreshing: query.isFetching,
    refresh: () => void query.refetch(),
  };
}
