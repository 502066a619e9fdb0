import type { WalletBalance } from "@bundler/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import toast from "react-hot-toast";
import { randomUuid } from "../../../lib/key-store.ts";
import { useEmptyWallets } from "../api/empty-wallets.ts";
import { getBundleBalancesQueryOptions } from "../api/get-bundle-balances.ts";
import { bundlePnlKey } from "../api/get-bundle-pnl.ts";
import { useSellDeveloper } from "../api/sell-developer.ts";
import { useSellWallets } from "../api/sell-wallets.ts";
import { type EmptyWarning, emptyWarning } from "../utils/empty-warning.ts";
import { sellAmountValue } from "../utils/sell-amount.ts";
import { type ProgressRow, rowsFromEmpty, rowsFromSell } from "../utils/tx-progress.ts";
import { failedBecause, WALLETS_MESSAGES, withReason } from "../utils/wallet-messages.ts";
import type { SellAmountState } from "./use-sell-amount.ts";
import type { SellOptionsState } from "./use-sell-options.ts";
import type { WalletSelection } from "./use-wallet-selection.ts";

/** The open transaction-progress dialog; `rows` is null while the request is on its way. */
export interface SellProgress {
  id: number;
  title: string;
  windowTitle: string;
  rows: readonly ProgressRow[] | null;
  /** Bundles a sell went out in; more than one is said in the dialog. */
  bundles: number;
}

export interface BundleActionsInput {
  address: string;
  ticker: string;
  /** The bundle's wallets with their balances, in order. */
  balances: readonly WalletBalance[];
  selection: WalletSelection;
  sellAmount: SellAmountState;
  developerAmount: SellAmountState;
  /** Each sell panel's slippage and route. */
  sellOptions: SellOptionsState;
  developerOptions: SellOptionsState;
  receiver: string;
  clearReceiver: () => void;
  /** Called as a sell is sent, so the chart keeps the shares from before it. */
  beforeSell: () => void;
}

/**
 * Sell from the selected wallets or the developer's, and empty the selected wallets (after a
 * confirmation when some of them still hold tokens). Each opens the progress dialog.
 */
export function useBundleActions(input: BundleActionsInput) {
  const { address, selection, sellAmount, developerAmount, sellOptions, developerOptions } = input;
  const queryClient = useQueryClient();
  const sellWallets = useSellWallets();
  const sellDeveloper = useSellDeveloper();
  const emptyWallets = useEmptyWallets();
  const [progress, setProgress] = useState<SellProgress | null>(null);
  const [emptyConfirm, setEmptyConfirm] = useState<EmptyWarning | null>(null);
  const nextId = useRef(0);
  const wallets = input.balances.map((wallet) => wallet.address);

  // After a sell or an empty: the balances, and the P&L the chain now says.
  const refetchBalances = useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({
          queryKey: getBundleBalancesQueryOptions(address).queryKey,
        }),
        queryClient.invalidateQueries({ queryKey: bundlePnlKey(address) }),
      ]),
    [queryClient, address],
  );

  // The dialog on screen, if any: an answer that comes after its dialog was closed polls nothing.
  const openId = useRef<number | null>(null);
  const open = (title: string, windowTitle = "sell --progress") => {
    const id = ++nextId.current;
    openId.current = id;
    setProgress({ id, title, windowTitle, rows: null, bundles: 0 });
    return {
      fill: (rows: readonly ProgressRow[], bundles = 0) => {
        if (openId.current !== id) return void refetchBalances();
        setProgress((current) => (current?.id === id ? { ...current, rows, bundles } : current));
      },
      close: () => {
        if (openId.current === id) openId.current = null;
        setProgress((current) => (current?.id === id ? null : current));
      },
    };
  };

  const sell = () => {
    const amount = sellAmountValue(sellAmount.amount);
    const picked = selection.pick(wallets);
    const slippageBps = sellOptions.slippageBps;
    // A bad slippage shows its sentence under the field; nothing is sent.
    if (!amount || picked.length === 0 || slippageBps === null) return;
    input.beforeSell();
    const dialog = open("Selling tokens");
    const isPercentage = sellAmount.unit === "percent";
    sellWallets.mutate(
      // One id per click: the server answers a repeat of it (a retried request) with the
      // transactions it already sent, instead of selling twice.
      {
        address,
        wallets: picked,
        amount,
        isPercentage,
        slippageBps,
        route: sellOptions.route,
        requestId: randomUuid(),
      },
      {
        onSuccess: (response) => {
          dialog.fill(rowsFromSell(response.transactions), response.bundles);
          selection.clear();
          sellAmount.reset();
        },
        onError: (error) => {
          toast.error(failedBecause(WALLETS_MESSAGES.sellFailed, error));
          dialog.close();
        },
      },
    );
  };

  const sellAsDeveloper = () => {
    const amount = sellAmountValue(developerAmount.amount);
    const slippageBps = developerOptions.slippageBps;
    if (!amount || slippageBps === null) return;
    input.beforeSell();
    const dialog = open("Selling developer tokens");
    const isPercentage = developerAmount.unit === "percent";
    sellDeveloper.mutate(
      {
        address,
        amount,
        isPercentage,
        slippageBps,
        route: developerOptions.route,
        requestId: randomUuid(),
      },
      {
        onSuccess: (response) => {
          // An approval that had to go first, then the sell itself.
          dialog.fill(
            rowsFromSell([...response.transactions, response.transaction]),
            response.bundles,
          );
          developerAmount.reset();
        },
        onError: (error) => {
          toast.error(failedBecause(WALLETS_MESSAGES.developerSellFailed, error));
          dialog.close();
        },
      },
    );
  };

  const sendEmpty = (picked: string[], receiver: string) => {
    const dialog = open("Emptying wallets", "empty --progress");
    emptyWallets.mutate(
      { address, wallets: picked, receiver, requestId: randomUuid() },
      {
        onSuccess: ({ results }) => {
          dialog.fill(rowsFromEmpty(results));
          const emptied = results.filter((result) => result.success).length;
          // Sent but not mined yet is not a failure: the dialog follows it.
          const refused = results.filter((result) => !result.success && !result.hash);
          const reason = refused[0]?.error ?? null;
          if (emptied > 0) toast.success(WALLETS_MESSAGES.emptied(emptied));
          if (refused.length > 0) {
            toast.error(
              refused.length === results.length
                ? withReason(WALLETS_MESSAGES.emptyFailed, reason)
                : WALLETS_MESSAGES.emptyPartlyFailed(refused.length, reason),
            );
          }
          selection.clear();
          input.clearReceiver();
        },
        onError: (error) => {
          toast.error(failedBecause(WALLETS_MESSAGES.emptyFailed, error));
          dialog.close();
        },
      },
    );
  };

  /** Empties the selected wallets; first asks when some of them still hold tokens. */
  const empty = () => {
    const picked = selection.pick(wallets);
    const receiver = input.receiver.trim();
    if (picked.length === 0 || !receiver) return;
    const warning = emptyWarning(input.balances, picked, input.ticker);
    if (warning) return void setEmptyConfirm(warning);
    sendEmpty(picked, receiver);
  };

  const confirmEmpty = () => {
    setEmptyConfirm(null);
    const picked = selection.pick(wallets);
    const receiver = input.receiver.trim();
    if (picked.length > 0 && receiver) sendEmpty(picked, receiver);
  };

  return {
    progress,
    closeProgress: () => {
      openId.current = null;
      setProgress(null);
      void refetchBalances();
    },
    onProgressFinished: () => void refetchBalances(),
    sell,
    sellAsDeveloper,
    empty,
    /** The question asked before emptying wallets that hold tokens, while it is open. */
    emptyConfirm,
    confirmEmpty,
    cancelEmpty: () => setEmptyConfirm(null),
    selling: sellWallets.isPending,
    sellingDeveloper: sellDeveloper.isPending,
    emptying: emptyWallets.isPending,
  };
}
