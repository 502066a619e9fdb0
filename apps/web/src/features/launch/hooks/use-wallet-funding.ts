import { useEffect, useMemo, useRef } from "react";
import toast from "react-hot-toast";
import { useBalances } from "../api/get-balances.ts";
import { fundingRows } from "../utils/funding.ts";
import type { BundleWallet, LaunchForm } from "../utils/launch-form.ts";
import { hasMissingFunds } from "../utils/main-action.ts";
import { walletFromPrivateKey } from "../utils/private-key.ts";

export const BALANCE_POLL_MS = 10_000;
export const ALL_FUNDED = "All wallets are funded";
export const REFRESH_FAILED = "Failed to refresh balances";

/**
 * Balances of every launch wallet in one request; polled every 10 s while a bundle wallet is
 * short of its buy value, with a success toast when the last one is funded.
 */
export function useWalletFunding(
  form: LaunchForm,
  wallets: readonly BundleWallet[],
  enabled: boolean,
) {
  const deployerAddress = walletFromPrivateKey(form.deployerPvtk)?.address ?? null;
  const tipPayerAddress = walletFromPrivateKey(form.tipPvtk)?.address ?? null;
  const rows = useMemo(
    () =>
      fundingRows({
        wallets,
        deployerAddress,
        tipPayerAddress,
        creatorBuy: form.deployerBuy,
        tip: form.tip,
      }),
    [wallets, deployerAddress, tipPayerAddress, form.deployerBuy, form.tip],
  );
  const addresses = useMemo(() => [...new Set(rows.map((row) => row.address))], [rows]);
  const hasAmounts = wallets.some((wallet) => Number(wallet.buyValue) > 0);

  const pending = useRef(true);
  const query = useBalances(addresses, {
    enabled: enabled && hasAmounts,
    refetchInterval: () => (pending.current ? BALANCE_POLL_MS : false),
  });
  const balances = query.data;
  const missingFunds = hasMissingFunds(wallets, balances ?? new Map());
  pending.current = missingFunds;

  const wasMissing = useRef<boolean | null>(null);
  useEffect(() => {
    if (!balances) return;
    if (wasMissing.current === true && !missingFunds && wallets.length > 0)
      toast.success(ALL_FUNDED);
    wasMissing.current = missingFunds;
  }, [balances, missingFunds, wallets.length]);

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
