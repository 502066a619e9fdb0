import type { Bump } from "@bundler/shared";
import { BarLineChart, CHART_COLORS } from "../../../components/charts/bar-line-chart.tsx";

interface Point {
  label: string;
  price: number;
  volume: number;
}

/** One point a bump: the price its buy paid, and the BNB it moved (bought + sold). */
export const chartPoints = (bumps: Bump[]): Point[] =>
  bumps.map((bump) => ({
    label: new Date(bump.at).toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit" }),
    price: Number(bump.price),
    volume: Number(bump.bought) + Number(bump.sold),
  }));

const compact = (value: number) =>
  value !== 0 && Math.abs(value) < 0.001
    ? value.toExponential(1) // a memecoin's price in BNB: 3.1e-8, not 0.0000000
    : value.toLocaleString("en-US", { maximumSignificantDigits: 3, notation: "compact" });

/** Price (line, left axis) and volume (bars, right axis) over the bumps. */
export function BumpsChart({ bumps }: { bumps: Bump[] }) {
  return (
    <BarLineChart
      data={chartPoints(bumps)}
      testId="bumps-chart"
      heightClass="h-56"
      maxBarSize={48}
      left={{
        key: "price",
        name: "price (BNB per token)",
        kind: "line",
        color: CHART_COLORS.gold,
        axisWidth: 56,
        tickFormat: compact,
      }}
      right={{
        key: "volume",
        name: "volume (BNB)",
        kind: "bar",
        color: CHART_COLORS.green,
        axisWidth: 48,
        tickFormat: compact,
      }}
    />
  );
}
