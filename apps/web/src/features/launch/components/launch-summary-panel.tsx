import type { LaunchPlan } from "@bundler/shared";
import type { UseQueryResult } from "@tanstack/react-query";
import { Section } from "../../../components/ui/section.tsx";
import { failureText } from "../../../lib/api-error.ts";
import { formatBnb, toWei } from "../../../lib/bnb.ts";
import { shortAddress } from "../../../lib/short-address.ts";

/** A gas price for reading: at most 3 decimals ("1.503515336" → "1.504"). */
const gwei = (value: string) => String(Number(Number(value).toFixed(3)));

const PLAN_FAILED = "Failed to plan the launch";

const isPositive = (value: string) => (toWei(value) ?? 0n) > 0n;

/** A wallet's place in the launch: the delayed sniper, or a bundle after the create's. */
function walletMark(wallet: LaunchPlan["wallets"][number], bundles: number): string | null {
  if (wallet.delayed) return "delayed sniper";
  return wallet.bundle !== null && wallet.bundle > 0
    ? `bundle ${wallet.bundle + 1} of ${bundles}`
    : null;
}

function PlanTable({ plan }: { plan: LaunchPlan }) {
  const rows = [
    {
      key: "creator",
      label: plan.creator.address ? shortAddress(plan.creator.address) : "creator",
      mark: plan.creator.address ? "creator" : null,
      spends: plan.creator.buyValue,
      gas: plan.creator.gas,
      share: plan.creator.sharePercent,
    },
    ...plan.wallets.map((wallet) => ({
      key: wallet.address,
      label: shortAddress(wallet.address),
      mark: walletMark(wallet, plan.tip.bundles),
      spends: wallet.buyValue,
      gas: wallet.gas,
      share: wallet.sharePercent,
    })),
  ];
  return (
    <div className="max-h-64 overflow-y-auto">
      <table className="w-full text-left text-xs" aria-label="Per-wallet summary">
        <thead className="text-faint">
          <tr>
            <th className="py-1 font-normal">wallet</th>
            <th className="py-1 text-right font-normal">spends (BNB)</th>
            <th className="py-1 text-right font-normal">gas (BNB)</th>
            <th className="py-1 text-right font-normal">share of supply</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className="border-t border-line">
              <td className="py-1 text-dim">
                {row.label}
                {row.mark && <span className="text-faint"> · {row.mark}</span>}
              </td>
              <td className="py-1 text-right">{formatBnb(row.spends)}</td>
              <td className="py-1 text-right">{formatBnb(row.gas)}</td>
              <td className="py-1 text-right">{row.share}%</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PlanTotals({ plan }: { plan: LaunchPlan }) {
  const { totals, tip, costs } = plan;
  const lines: [string, string][] = [
    ["Bundle buys", totals.bundleBuys],
    ["Creator buy", totals.creatorBuy],
    ...(isPositive(totals.creatorBuyFee)
      ? [
          ["Fee on the creator buy (sent with the create)", totals.creatorBuyFee] as [
            string,
            string,
          ],
        ]
      : []),
    ...(isPositive(totals.delayedBuy)
      ? [["Delayed buy", totals.delayedBuy] as [string, string]]
      : []),
    [`Builder tips (${formatBnb(tip.perBundle)} × ${tip.bundles})`, totals.tips],
    [`Gas (at ${gwei(costs.gasPriceGwei)} gwei)`, totals.gas],
    ["Creation fee", totals.creationFee],
    [totals.launchFeePaid ? "Launch fee (paid)" : "Launch fee", totals.launchFee],
  ];
  return (
    <dl className="grid grid-cols-2 gap-x-4 gap-y-1 border-t border-line pt-3 text-sm">
      {lines.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-dim">{label}</dt>
          <dd className="text-right">{formatBnb(value)} BNB</dd>
        </div>
      ))}
      <dt className="font-semibold text-fg">Total cost</dt>
      <dd className="text-right font-semibold text-accent" data-testid="summary-total">
        {formatBnb(totals.total)} BNB
      </dd>
      <dt className="text-dim">Bundle share of supply</dt>
      <dd className="text-right" data-testid="summary-share">
        {totals.bundleSharePercent}%
      </dd>
      <dt className="text-dim">Creator share of supply</dt>
      <dd className="text-right">{totals.creatorSharePercent}%</dd>
      {isPositive(totals.delayedBuy) && (
        <>
          <dt className="text-dim">Delayed share of supply</dt>
          <dd className="text-right">{totals.delayedSharePercent}%</dd>
        </>
      )}
    </dl>
  );
}

/**
 * What the launch will cost and hold, as the server plans it: each buy quoted in the order the
 * chain runs them, the gas of every transaction at the launch's gas price, tips and fees.
 */
export function LaunchSummaryPanel({ plan }: { plan: UseQueryResult<LaunchPlan> }) {
  const { data } = plan;
  return (
    <Section
      title="Pre-Launch Summary"
      aside={plan.isFetching && <span className="text-xs text-faint">calculating...</span>}
    >
      {plan.error && (
        <p className="text-sm text-bad" role="alert">
          {failureText(plan.error, PLAN_FAILED)}
        </p>
      )}
      {data && (
        <>
          <PlanTable plan={data} />
          <PlanTotals plan={data} />
          {data.curve.warning && (
            <p className="text-sm text-accent" role="alert">
              ⚠ {data.curve.warning}
            </p>
          )}
          {plan.isPlaceholderData && !plan.isFetching && (
            <p className="text-xs text-faint">
              The last plan: it updates once every amount is a valid BNB amount.
            </p>
          )}
          <p className="text-xs text-faint">
            Shares are the curve's quotes in launch order: the creator buy, the bundle, then the
            delayed sniper. Gas is budgeted at each transaction's gas limit, so the launch spends at
            most this.
          </p>
        </>
      )}
      {!data && !plan.error && !plan.isFetching && (
        <p className="text-xs text-faint">
          The summary shows once every amount is a valid BNB amount.
        </p>
      )}
    </Section>
  );
}
