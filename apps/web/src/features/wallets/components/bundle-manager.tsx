import type { bundleBalancesRoute } from "@bundler/shared";
import { useState } from "react";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import type { RouteResponse } from "../../../lib/api-client.ts";
import { useBundleActions } from "../hooks/use-bundle-actions.ts";
import { useSellAmount } from "../hooks/use-sell-amount.ts";
import { useSellOptions } from "../hooks/use-sell-options.ts";
import { useSupplyBefore } from "../hooks/use-supply-before.ts";
import { useWalletSelection } from "../hooks/use-wallet-selection.ts";
import { supplySnapshot } from "../utils/supply-shares.ts";
import { holdsTokens } from "../utils/wallet-filters.ts";
import { BundleHeader } from "./bundle-header.tsx";
import { BundleOverview } from "./bundle-overview.tsx";
import { EmptyWalletsPanel } from "./empty-wallets-panel.tsx";
import { PnlPanel } from "./pnl-panel.tsx";
import { RulesPanel } from "./rules-panel.tsx";
import { SellDeveloperPanel } from "./sell-developer-panel.tsx";
import { SellTokensPanel } from "./sell-tokens-panel.tsx";
import { SupplyPanel } from "./supply-panel.tsx";
import { TxProgressDialog } from "./tx-progress-dialog.tsx";
import { WalletSelector } from "./wallet-selector.tsx";

export type BundleBalances = RouteResponse<typeof bundleBalancesRoute>;

/** The loaded bundle: selector, chart, overview, the sell and empty panels, and its P&L. */
export function BundleManager({
  data,
  explorerUrl,
}: {
  data: BundleBalances;
  explorerUrl: string | null;
}) {
  const { bundle, balances, developerBalance, totalSupply } = data;
  const selection = useWalletSelection();
  const sellAmount = useSellAmount();
  const developerAmount = useSellAmount();
  const sellOptions = useSellOptions();
  const developerOptions = useSellOptions();
  const [receiver, setReceiver] = useState("");
  const supply = supplySnapshot(balances, developerBalance, totalSupply);
  const { before, capture } = useSupplyBefore();
  const actions = useBundleActions({
    address: bundle.address,
    ticker: bundle.ticker,
    balances,
    selection,
    sellAmount,
    developerAmount,
    sellOptions,
    developerOptions,
    receiver,
    clearReceiver: () => setReceiver(""),
    beforeSell: () => capture(supply),
  });
  const selectedCount = selection.pick(balances.map((wallet) => wallet.address)).length;
  const developer = developerBalance && holdsTokens(developerBalance) ? developerBalance : null;

  return (
    <>
      <BundleHeader bundle={bundle} explorerUrl={explorerUrl} />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-4">
          <WalletSelector balances={balances} selection={selection} explorerUrl={explorerUrl} />
          <SupplyPanel
            current={supply}
            before={before}
            developerAddress={developerBalance?.address ?? null}
          />
        </div>
        <div className="flex flex-col gap-4">
          <BundleOverview address={bundle.address} balances={balances} ticker={bundle.ticker} />
          <SellTokensPanel
            state={sellAmount}
            options={sellOptions}
            ticker={bundle.ticker}
            selectedCount={selectedCount}
            busy={actions.selling}
            onSell={actions.sell}
          />
          {developer && (
            <SellDeveloperPanel
              developer={developer}
              explorerUrl={explorerUrl}
              state={developerAmount}
              options={developerOptions}
              ticker={bundle.ticker}
              busy={actions.sellingDeveloper}
              onSell={actions.sellAsDeveloper}
            />
          )}
          <EmptyWalletsPanel
            receiver={receiver}
            onReceiver={setReceiver}
            selectedCount={selectedCount}
            busy={actions.emptying}
            onEmpty={actions.empty}
          />
        </div>
      </div>
      <div className="mt-4">
        <PnlPanel address={bundle.address} ticker={bundle.ticker} explorerUrl={explorerUrl} />
      </div>
      <div className="mt-4">
        <RulesPanel address={bundle.address} explorerUrl={explorerUrl} />
      </div>
      {actions.progress && (
        <TxProgressDialog
          key={actions.progress.id}
          title={actions.progress.title}
          windowTitle={actions.progress.windowTitle}
          rows={actions.progress.rows}
          bundles={actions.progress.bundles}
          ticker={bundle.ticker}
          explorerUrl={explorerUrl}
          onClose={actions.closeProgress}
          onFinished={actions.onProgressFinished}
        />
      )}
      {actions.emptyConfirm && (
        <ConfirmDialog
          title="Empty wallets that hold tokens?"
          message={actions.emptyConfirm.message}
          confirmLabel="[empty anyway]"
          onConfirm={actions.confirmEmpty}
          onCancel={actions.cancelEmpty}
        >
          <p className="text-xs text-faint">
            Emptying sends all of a wallet's BNB to the receiver, so nothing is left for the gas a
            sell needs. Sell first to keep the tokens' worth.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
