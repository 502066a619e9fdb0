import { Section } from "../../../components/ui/section.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { shortAddress } from "../../../lib/short-address.ts";
import type { LaunchSummary } from "../utils/launch-summary.ts";

const pct = (value: number | null) => (value === null ? "—" : `${value.toFixed(2)}%`);

/** What the launch will cost and hold, before anything is paid. */
export function LaunchSummaryPanel({ summary }: { summary: LaunchSummary }) {
  const lines: [string, string][] = [
    ["Bundle buys", summary.bundleBuys],
    ["Creator buy", summary.creatorBuy],
    ["Builder tip", summary.tip],
    ["Gas (estimate)", summary.gasEstimate],
    ["Launch fee", summary.launchFee],
  ];
  return (
    <Section title="Pre-Launch Summary">
      <div className="max-h-64 overflow-y-auto">
        <table className="w-full text-left text-xs" aria-label="Per-wallet summary">
          <thead className="text-faint">
            <tr>
              <th className="py-1 font-normal">wallet</th>
              <th className="py-1 text-right font-normal">spends (BNB)</th>
              <th className="py-1 text-right font-normal">share of supply</th>
            </tr>
          </thead>
          <tbody>
            {summary.rows.map((row) => (
              <tr key={row.address} className="border-t border-line">
                <td className="py-1 text-dim">{shortAddress(row.address)}</td>
                <td className="py-1 text-right">{formatBnb(row.buyValue)}</td>
                <td className="py-1 text-right">{pct(row.sharePercent)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 border-t border-line pt-3 text-sm">
        {lines.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-dim">{label}</dt>
            <dd className="text-right">{formatBnb(value)} BNB</dd>
          </div>
        ))}
        <dt className="font-semibold text-fg">Total cost</dt>
        <dd className="text-right font-semibold text-accent" data-testid="summary-total">
          {formatBnb(summary.total)} BNB
        </dd>
        <dt className="text-dim">Bundle share of supply</dt>
        <dd className="text-right" data-testid="summary-share">
          {pct(summary.bundleSharePercent)}
        </dd>
      </dl>
      <p className="text-xs text-faint">
        Shares come from the curve's quote on a fresh token (creator buy not included); gas is an
        estimate at 0.0003 BNB per buy plus the create.
      </p>
    </Section>
  );
}
