import type { SellTransaction } from "@bundler/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import toast from "react-hot-toast";
import { randomUuid } from "../../../lib/key-store.ts";
import { useEmptyWallets } from "../api/empty-wallets.ts";
import { getBundleBalancesQueryOptions } from "../api/get-bundle-balances.ts";
import { useSellDeveloper } from "../api/sell-developer.ts";
import { useSellWallets } from "../api/sell-wallets.ts";
import { sellAmountValue } from "../utils/sell-amount.ts";
import { WALLETS_MESSAGES } from "../utils/wallet-messages.ts";
import type { SellAmountState } from "./use-sell-amount.ts";
import type { WalletSelection } from "./use-wallet-selection.ts";

/** The open transaction-progress dialog; `transactions` is null while the sell is on its way. */
export interface SellProgress {
  id: number;
  title: string;
  transactions: readonly SellTransaction[] | null;
}

export interface BundleActionsInput {
  address: string;
  /** The bundle's wallets, in order. */
  wallets: readonly string[];
  selection: WalletSelection;
  sellAmount: SellAmountState;
  developerAmount: SellAmountState;
  receiver: string;
  clearReceiver: () => void;
  /** Called as a sell is sent, so the chart keeps the shares from before it. */
  beforeSell: () => void;
}

/** Sell from the selected wallets or the developer's, and empty the selected wallets. */
export function useBundleActions(input: BundleActionsInput) {
  const { address, selection, sellAmount, developerAmount } = input;
  const queryClient = useQueryClient();
  const sellWallets = useSellWallets();
  const sellDeveloper = useSellDeveloper();
  const emptyWallets = useEmptyWallets();
  const [progress, setProgress] = useState<SellProgress | null>(null);
  const nextId = useRef(0);

  const refetchBalances = useCallback(
    () =>
      queryClient.invalidateQueries({ queryKey: getBundleBalancesQueryOptions(address).queryKey }),
    [queryClient, address],
  );

  // The dialog on screen, if any: a sell answered after its dialog was closed polls nothing.
  const openId = useRef<number | null>(null);
  const open = (title: string) => {
    const id = ++nextId.current;
    openId.current = id;
    setProgress({ id, title, transactions: null });
    return {
      fill: (transactions: readonly SellTransaction[]) => {
        if (openId.current !== id) return void refetchBalances();
        setProgress((current) => (current?.id === id ? { ...current, transactions } : current));
      },
      close: () => {
        if (openId.current === id) openId.current = null;
        setProgress((current) => (current?.id === id ? null : current));
      },
    };
  };

  const sell = () => {
    const amount = sellAmountValue(sellAmount.amount);
    const wallets = selection.pick(input.wallets);
    if (!amount || wallets.length === 0) return;
    input.beforeSell();
    const dialog = open("Selling tokens");
    const isPercentage = sellAmount.unit === "percent";
    sellWallets.mutate(
      // One id per click: the server answers a repeat of it (a retried request) with the
      // transactions it already sent, instead of selling twice.
      { address, wallets, amount, isPercentage, requestId: randomUuid() },
      {
        onSuccess: (response) => {
          dialog.fill(response.transactions);
          selection.clear();
          sellAmount.reset();
        },
        onError: () => {
          toast.error(WALLETS_MESSAGES.sellFailed);
          dialog.close();
        },
      },
    );
  };

  const sellAsDeveloper = () => {
    const amount = sellAmountValue(developerAmount.amount);
    if (!amount) return;
    input.beforeSell();
    const dialog = open("Selling developer tokens");
    const isPercentage = developerAmount.unit === "percent";
    sellDeveloper.mutate(
      { address, amount, isPercentage, requestId: randomUuid() },
      {
        onSuccess: (response) => {
          // An approval that had to go first, then the sell itself.
          dialog.fill([...response.transactions, response.transaction]);
          developerAmount.reset();
        },
        onError: () => {
          toast.error(WALLETS_MESSAGES.developerSellFailed);
          dialog.close();
        },
      },
    );
  };

  const empty = () => {
    const wallets = selection.pick(input.wallets);
    const receiver = input.receiver.trim();
    if (wallets.length === 0 || !receiver) return;
    emptyWallets.mutate(
      { address, wallets, receiver, requestId: randomUuid() },
      {
        onSuccess: ({ results }) => {
          const emptied = results.filter((result) => result.success).length;
          const failed = results.filter((result) => !result.success);
          if (emptied > 0) toast.success(WALLETS_MESSAGES.emptied(emptied));
          if (failed.length > 0) {
            toast.error(
              emptied === 0
                ? WALLETS_MESSAGES.emptyFailed
                : WALLETS_MESSAGES.emptyPartlyFailed(failed.length, failed[0]?.error ?? null),
            );
          }
          selection.clear();
          input.clearReceiver();
        },
        onError: () => toast.error(WALLETS_MESSAGES.emptyFailed),
      },
    );
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
    selling: sellWallets.isPending,
    sellingDeveloper: sellDeveloper.isPending,
    emptying: emptyWallets.isPending,
  };
}
