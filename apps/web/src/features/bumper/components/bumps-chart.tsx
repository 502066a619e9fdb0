import type { Bump } from "@bundler/shared";
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";

// The theme's colours (index.css), which recharts needs as values rather than classes.
const COLORS = {
  price: "#f0b90b",
  volume: "#3fd17a",
  grid: "#222a28",
  text: "#8a9692",
  panel: "#151a19",
} as const;

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
    <div className="h-56 w-full" data-testid="bumps-chart">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={chartPoints(bumps)} margin={{ top: 8, right: 0, bottom: 8, left: 0 }}>
          <CartesianGrid stroke={COLORS.grid} vertical={false} />
          <XAxis dataKey="label" stroke={COLORS.text} tick={{ fontSize: 10 }} />
          <YAxis
            yAxisId="price"
            stroke={COLORS.text}
            tick={{ fontSize: 10 }}
            tickFormatter={compact}
            width={56}
          />
          <YAxis
            yAxisId="volume"
            orientation="right"
            stroke={COLORS.text}
            tick={{ fontSize: 10 }}
            tickFormatter={compact}
            width={48}
          />
          <Tooltip
            contentStyle={{ background: COLORS.panel, border: `1px solid ${COLORS.grid}` }}
          />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          <Bar
            yAxisId="volume"
            dataKey="volume"
            name="volume (BNB)"
            fill={COLORS.volume}
            fillOpacity={0.5}
            maxBarSize={48}
            isAnimationActive={false}
          />
          <Line
            yAxisId="price"
            dataKey="price"
            name="price (BNB per token)"
            stroke={COLORS.price}
            dot={false}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
