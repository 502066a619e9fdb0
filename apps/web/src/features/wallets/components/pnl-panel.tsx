import { lazy, Suspense } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { useDownloadPnlCsv } from "../api/download-pnl-csv.ts";
import { useBundlePnl } from "../api/get-bundle-pnl.ts";
import { useBundlePnlHistory } from "../api/get-bundle-pnl-history.ts";
import { usePnlReadings } from "../hooks/use-pnl-readings.ts";
import { bnbFigure, weiOf } from "../utils/pnl-money.ts";
import { chartPoints } from "../utils/pnl-points.ts";
import { PnlCostLines } from "./pnl-cost-lines.tsx";
import { PnlTotals } from "./pnl-totals.tsx";
import { PnlWalletTable } from "./pnl-wallet-table.tsx";

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

// recharts loads only when a bundle's page draws a chart (as the supply chart does).
const PnlChart = lazy(() => import("./pnl-chart.tsx").then((m) => ({ default: m.PnlChart })));

const chartFallback = (
  <p className="flex h-56 items-center justify-center gap-2 text-dim">
    <Spinner /> loading chart...
  </p>
);

/**
 * "Profit & Loss": what the launch cost, what it returned and what it is worth now (at the
 * price, and as a one-block exit), per wallet and in total, from the server's ledger; a chart
 * of it over the bundle's life, and the ledger as CSV.
 */
export function PnlPanel({
  address,
  ticker,
  explorerUrl,
}: {
  address: string;
  ticker: string;
  explorerUrl: string | null;
}) {
  const pnl = useBundlePnl(address);
  const history = useBundlePnlHistory(address);
  const readings = usePnlReadings(pnl.data?.totals, pnl.dataUpdatedAt);
  const csv = useDownloadPnlCsv(address, ticker);
  const points = chartPoints(history.data?.points ?? [], readings);
  const flagged = pnl.data?.drift.filter((entry) => entry.flagged).length ?? 0;

  return (
    <Section
      title="Profit & Loss"
      aside={
        <Button
          variant="secondary"
          className="px-3 py-1 text-xs"
          busy={csv.isPending}
          busyLabel="downloading..."
          onClick={() => csv.mutate()}
        >
          Download CSV
        </Button>
      }
    >
      <QueryState
        query={pnl}
        loading="reading the bundle's ledger..."
        failure="Failed to load the bundle's P&L"
      >
        {(data) => (
          <>
            <PnlTotals totals={data.totals} bnbUsd={data.bnbUsd} />
            <p className="text-xs text-faint" data-testid="pnl-as-of">
              As of block {data.asOfBlock}
              {data.bnbUsd !== null && `, at $${data.bnbUsd.toFixed(2)} per BNB`}.
            </p>
            {flagged > 0 && (
              <p role="alert" className="text-sm text-bad" data-testid="pnl-drift">
                {flagged === 1 ? "1 wallet's" : `${flagged} wallets'`} balance differs from the
                ledger by more than 0.1%: a transfer the app did not make.
              </p>
            )}
            {points.length === 0 ? (
              <p className="text-dim">No ledger events yet: the chart fills in as they come.</p>
            ) : (
              <Suspense fallback={chartFallback}>
                <PnlChart points={points} />
              </Suspense>
            )}
            {data.taxToken && (
              <p className="text-xs text-dim" data-testid="pnl-tax-token">
                Tax token: {data.taxToken.feeRate / 100}% of each PancakeSwap buy and sell.{" "}
                {data.taxToken.recipient === ZERO_ADDRESS
                  ? "It has no recipient"
                  : `Its recipient ${data.taxToken.recipient} has earned ${bnbFigure(weiOf(data.taxToken.recipientEarnedWei))} WBNB`}
                , its holders {bnbFigure(weiOf(data.taxToken.holdersEarnedWei))} WBNB.
              </p>
            )}
            <PnlCostLines lines={data.lines} bnbUsd={data.bnbUsd} />
            <PnlWalletTable
              wallets={data.wallets}
              drift={data.drift}
              explorerUrl={explorerUrl}
              taxed={data.taxToken !== null}
            />
          </>
        )}
      </QueryState>
    </Section>
  );
}
