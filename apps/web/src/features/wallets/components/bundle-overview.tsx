import type { WalletBalance } from "@bundler/shared";
import type { ReactNode } from "react";
import { Section } from "../../../components/ui/section.tsx";
import { formatBnb, toWei } from "../../../lib/bnb.ts";
import { useBundlePnl } from "../api/get-bundle-pnl.ts";
import { weiOf } from "../utils/pnl-money.ts";
import { formatTokenCount, toUnits } from "../utils/token-amount.ts";
import { holdsTokens } from "../utils/wallet-filters.ts";

function Stat({
  label,
  testId,
  children,
  aside,
}: {
  label: string;
  testId: string;
  children: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs text-faint" data-testid={`${testId}-label`}>
        {label}
      </dt>
      <dd className="break-all text-fg" data-testid={testId}>
        {children}
      </dd>
      {aside}
    </div>
  );
}

/**
 * What the P&L's one-block exit simulation says the bundle wallets' tokens would fetch now
 * (the P&L panel's own query, so no second request); null until it is known.
 */
function useExitValue(address: string, balances: readonly WalletBalance[]): bigint | null {
  const pnl = useBundlePnl(address);
  if (!pnl.data) return null;
  const ours = new Set(balances.map((wallet) => wallet.address.toLowerCase()));
  return pnl.data.wallets
    .filter((wallet) => ours.has(wallet.address.toLowerCase()))
    .reduce((sum, wallet) => sum + weiOf(wallet.exitWei), 0n);
}

/**
 * "Bundle Overview": what the bundle's wallets hold together. SPEC §2's "Total Value in ticker"
 * is a count of tokens, so it says so, without the decimals that are noise on a large count,
 * and what those tokens would fetch now beside it.
 */
export function BundleOverview({
  address,
  balances,
  ticker,
}: {
  address: string;
  balances: readonly WalletBalance[];
  ticker: string;
}) {
  const tokens = balances.reduce((sum, wallet) => sum + toUnits(wallet.tokenUnits), 0n);
  const bnb = balances.reduce((sum, wallet) => sum + (toWei(wallet.bnbBalance) ?? 0n), 0n);
  const active = balances.filter(holdsTokens).length;
  const exit = useExitValue(address, balances);
  return (
    <Section title="Bundle Overview">
      <dl className="grid gap-3 sm:grid-cols-3 lg:grid-cols-1">
        <Stat
          label="Total Value (tokens held)"
          testId="overview-tokens"
          aside={
            exit !== null && (
              <span
                className="text-xs text-dim"
                data-testid="overview-tokens-bnb"
                title="What selling every wallet's tokens in one block would fetch now (the P&L's exit value)"
              >
                ≈ {formatBnb(exit)} BNB if sold now
              </span>
            )
          }
        >
          {formatTokenCount(tokens)} {ticker}
        </Stat>
        <Stat label="Total BNB" testId="overview-bnb">
          {formatBnb(bnb)} BNB
        </Stat>
        <Stat label="Active Wallets" testId="overview-active">
          {active} / {balances.length}
        </Stat>
      </dl>
    </Section>
  );
}
