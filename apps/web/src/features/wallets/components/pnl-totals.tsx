import type { PnlTotals as Totals } from "@bundler/shared";
import { bnbOfWei, signedBnbOfWei, usdOfWei, weiOf } from "../utils/pnl-money.ts";

const FIGURES: readonly {
  key: keyof Totals;
  label: string;
  hint: string;
  signed?: boolean;
  /** Shown only when it is not 0. */
  optional?: boolean;
}[] = [
  { key: "costWei", label: "Cost", hint: "Fees, buys, tips, gas and dispersal, all in." },
  { key: "proceedsWei", label: "Proceeds", hint: "Every sale, and the BNB emptied out." },
  {
    key: "realizedWei",
    label: "Realized P&L",
    hint: "Proceeds less the average cost of the tokens sold.",
    signed: true,
  },
  {
    key: "emptiedWei",
    label: "Emptied",
    hint: "BNB the wallets' empties sent back: your own money, not proceeds.",
    optional: true,
  },
  { key: "markWei", label: "Mark value", hint: "Today's price times the tokens held." },
  {
    key: "exitWei",
    label: "Exit value",
    hint: "What selling every wallet in one block would fetch now.",
  },
  {
    key: "unrealizedExitWei",
    label: "Unrealized on exit",
    hint: "Exit value less the average cost of the tokens held.",
    signed: true,
  },
];

const tone = (wei: bigint, signed: boolean | undefined) =>
  !signed || wei === 0n ? "text-fg" : wei > 0n ? "text-ok" : "text-bad";

/**
 * The bundle's six figures (and what empties sent back, once they did), each in BNB to 4
 * decimals and in USD at the app's price.
 */
export function PnlTotals({ totals, bnbUsd }: { totals: Totals; bnbUsd: number | null }) {
  return (
    <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {FIGURES.map(({ key, label, hint, signed, optional }) => {
        const wei = weiOf(totals[key]);
        if (optional && wei === 0n) return null;
        const usd = usdOfWei(wei, bnbUsd);
        return (
          <div key={key} className="flex flex-col gap-0.5" title={hint}>
            <dt className="text-xs text-faint">{label}</dt>
            <dd className={`tabular-nums ${tone(wei, signed)}`} data-testid={`pnl-${key}`}>
              {signed ? signedBnbOfWei(wei) : bnbOfWei(wei)}
            </dd>
            {usd && (
              <dd className="text-xs tabular-nums text-dim" data-testid={`pnl-${key}-usd`}>
                {usd}
              </dd>
            )}
          </div>
        );
      })}
    </dl>
  );
}
