import { lazy, Suspense } from "react";
import { Section } from "../../../components/ui/section.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { type SupplySnapshot, shareRows } from "../utils/supply-shares.ts";
import { formatPercent } from "../utils/token-amount.ts";

// recharts is the app's largest library: it loads only when a bundle's page draws its chart.
const SupplyChart = lazy(() =>
  import("./supply-chart.tsx").then((m) => ({ default: m.SupplyChart })),
);

/** "Supply Distribution": each wallet's share of supply and the bundle's, before and after a sell. */
export function SupplyPanel({
  current,
  before,
  developerAddress,
}: {
  current: SupplySnapshot;
  /** The shares when the last sell was sent; null until a sell. */
  before: SupplySnapshot | null;
  developerAddress: string | null;
}) {
  const rows = shareRows(current, before, developerAddress);
  return (
    <Section title="Supply Distribution">
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-xs">
        <div className="flex gap-2">
          <dt className="text-faint">Bundle share</dt>
          <dd className="text-fg" data-testid="bundle-share">
            {formatPercent(current.bundlePercent)}
            {before && (
              <span className="text-dim">
                {" "}
                (before sell: {formatPercent(before.bundlePercent)})
              </span>
            )}
          </dd>
        </div>
        {current.developerPercent !== null && (
          <div className="flex gap-2">
            <dt className="text-faint">Developer share</dt>
            <dd className="text-fg" data-testid="developer-share">
              {formatPercent(current.developerPercent)}
              {before?.developerPercent != null && (
                <span className="text-dim">
                  {" "}
                  (before sell: {formatPercent(before.developerPercent)})
                </span>
              )}
            </dd>
          </div>
        )}
      </dl>
      {rows.length === 0 ? (
        <p className="text-dim">No wallet holds the token.</p>
      ) : (
        <Suspense
          fallback={
            <p className="flex h-64 items-center justify-center gap-2 text-dim">
              <Spinner /> loading chart...
            </p>
          }
        >
          <SupplyChart rows={rows} compare={before !== null} />
        </Suspense>
      )}
    </Section>
  );
}
