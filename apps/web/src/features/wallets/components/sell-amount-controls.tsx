import { Input } from "../../../components/ui/input.tsx";
import type { SellAmountState } from "../hooks/use-sell-amount.ts";
import { QUICK_PERCENTS, type SellUnit } from "../utils/sell-amount.ts";

const UNITS: readonly { unit: SellUnit; label: string }[] = [
  { unit: "tokens", label: "tokens" },
  { unit: "percent", label: "%" },
];

/** Amount, tokens/percent toggle and the 25/50/75/100% buttons of a sell panel. */
export function SellAmountControls({
  state,
  label,
  ticker,
  of = "each",
}: {
  state: SellAmountState;
  /** The input's accessible name, e.g. "Sell amount". */
  label: string;
  ticker: string;
  /** Whose balance the amount and the percent are of. */
  of?: "each" | "developer";
}) {
  const { amount, unit } = state;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-stretch gap-2">
        <Input
          aria-label={label}
          inputMode="decimal"
          placeholder={unit === "percent" ? "e.g. 50" : "e.g. 1000000"}
          value={amount}
          onChange={(e) => state.setAmount(e.target.value)}
        />
        <fieldset aria-label={`${label} unit`} className="flex shrink-0">
          {UNITS.map((option) => (
            <button
              key={option.unit}
              type="button"
              aria-pressed={unit === option.unit}
              title={option.unit === "tokens" ? `Amount in ${ticker}` : "Percent of each balance"}
              onClick={() => state.setUnit(option.unit)}
              className={`border px-3 ${unit === option.unit ? "border-accent bg-accent-soft text-accent" : "border-line-strong text-dim hover:text-fg"}`}
            >
              {option.label}
            </button>
          ))}
        </fieldset>
      </div>
      <div className="flex flex-wrap gap-2">
        {QUICK_PERCENTS.map((percent) => {
          const active = unit === "percent" && amount === String(percent);
          return (
            <button
              key={percent}
              type="button"
              aria-pressed={active}
              onClick={() => state.pickPercent(percent)}
              className={`rounded-sm border px-2 py-0.5 text-xs transition-colors ${
                active
                  ? "border-accent bg-accent-soft text-accent"
                  : "border-line-strong text-dim hover:border-accent hover:text-accent"
              }`}
            >
              {percent}%
            </button>
          );
        })}
      </div>
      <p className="text-xs text-faint">
        {of === "each"
          ? unit === "percent"
            ? "Percent of each wallet's token balance."
            : `${ticker} to sell from each wallet.`
          : unit === "percent"
            ? "Percent of the developer's token balance."
            : `${ticker} to sell from the developer wallet.`}
      </p>
    </div>
  );
}
