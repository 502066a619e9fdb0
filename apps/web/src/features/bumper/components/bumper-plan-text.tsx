import { type BumperCosts, bumperPlan, plural } from "@bundler/shared";
import { formatBnb, fromWei, toWei } from "../../../lib/bnb.ts";

/**
 * The BNB a new bumper needs, and what it is made of: the buy size once (each bump buys with
 * it and sells it back), and for each bump the builder's tip, its gas at today's price and the
 * trading fees of its buy and sell. Funded with this, every bump has what it needs.
 */
export function BumperPlanText({
  buySize,
  bumps,
  costs,
}: {
  /** BNB as typed. */
  buySize: string;
  bumps: number;
  costs: BumperCosts | undefined;
}) {
  const buyWei = toWei(buySize);
  if (buyWei === null || buyWei <= 0n || !Number.isFinite(bumps) || bumps <= 0)
    return (
      <p className="text-xs text-dim" data-testid="bumper-plan">
        Fill in the settings to see the bumps and the BNB they need.
      </p>
    );
  if (!costs)
    return (
      <p className="text-xs text-dim" data-testid="bumper-plan">
        {plural(bumps, "bump")} · reading what a bump costs now...
      </p>
    );
  const plan = bumperPlan(buyWei, bumps, costs);
  const { tip, gas, fees } = plan.perBump;
  return (
    <div className="flex flex-col gap-1 text-xs text-dim">
      <p data-testid="bumper-plan">
        {/* An amount to send: exact, not rounded to 4 decimals. */}
        {plural(bumps, "bump")} · fund {fromWei(plan.required)} BNB
      </p>
      <p data-testid="bumper-plan-parts">
        The buy size {formatBnb(buyWei)} BNB once, then each bump: builder tip {formatBnb(tip)} BNB,
        gas up to {formatBnb(gas)} BNB at today's gas price, trading fees {formatBnb(fees)} BNB.
      </p>
    </div>
  );
}
