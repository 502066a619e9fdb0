import { SELL_ROUTES, type SellRoute } from "@bundler/shared";
import { useId } from "react";
import { Input } from "../../../components/ui/input.tsx";
import type { SellOptionsState } from "../hooks/use-sell-options.ts";

const ROUTE_LABELS: Record<SellRoute, string> = {
  bundle: "Private bundle (default)",
  public: "Public mempool",
};

/** A sell's slippage (its floor) and whether it goes out in a private bundle or in public. */
export function SellOptionsControls({ options }: { options: SellOptionsState }) {
  const id = useId();
  const problemId = `${id}-problem`;
  return (
    <div className="flex flex-col gap-2 text-xs">
      <label className="flex items-center gap-2" htmlFor={`${id}-slippage`}>
        <span className="shrink-0 text-dim">Slippage %</span>
        <Input
          id={`${id}-slippage`}
          aria-label="Slippage %"
          inputMode="decimal"
          className="max-w-24 py-1"
          value={options.slippage}
          aria-invalid={options.problem ? true : undefined}
          aria-describedby={options.problem ? problemId : undefined}
          onChange={(e) => options.setSlippage(e.target.value)}
        />
      </label>
      {options.problem ? (
        <p id={problemId} role="alert" className="text-bad">
          {options.problem}
        </p>
      ) : (
        <p className="text-faint">
          Each sale reverts rather than fetch less than its simulated proceeds less{" "}
          {options.slippage.trim()}%.
        </p>
      )}
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
        <legend className="sr-only">Route</legend>
        {SELL_ROUTES.map((route) => (
          <label key={route} className="flex items-center gap-1.5 text-dim">
            <input
              type="radio"
              name={`${id}-route`}
              value={route}
              checked={options.route === route}
              onChange={() => options.setRoute(route)}
              className="accent-accent"
            />
            {ROUTE_LABELS[route]}
          </label>
        ))}
      </fieldset>
      {options.route === "public" && (
        <p className="text-faint">
          Public: each sale waits in the mempool, where bots see it before it lands.
        </p>
      )}
    </div>
  );
}
