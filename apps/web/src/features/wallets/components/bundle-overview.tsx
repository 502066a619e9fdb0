import type { WalletBalance } from "@bundler/shared";
import type { ReactNode } from "react";
import { Section } from "../../../components/ui/section.tsx";
import { formatBnb, toWei } from "../../../lib/bnb.ts";
import { formatTokens, toUnits } from "../utils/token-amount.ts";
import { holdsTokens } from "../utils/wallet-filters.ts";

function Stat({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs text-faint">{label}</dt>
      <dd className="break-all text-fg" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** "Bundle Overview": what the bundle's wallets hold together. */
export function BundleOverview({
  balances,
  ticker,
}: {
  balances: readonly WalletBalance[];
  ticker: string;
}) {
  const tokens = balances.reduce((sum, wallet) => sum + toUnits(wallet.tokenUnits), 0n);
  const bnb = balances.reduce((sum, wallet) => sum + (toWei(wallet.bnbBalance) ?? 0n), 0n);
  const active = balances.filter(holdsTokens).length;
  return (
    <Section title="Bundle Overview">
      <dl className="grid gap-3 sm:grid-cols-3 lg:grid-cols-1">
        <Stat label="Total Value" testId="overview-tokens">
          {formatTokens(tokens)} {ticker}
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
