import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { ShareRow } from "../utils/supply-shares.ts";
import { formatPercent } from "../utils/token-amount.ts";

// The theme's colours (index.css), which recharts needs as values rather than classes.
const COLORS = {
  now: "#f0b90b",
  before: "#56615e",
  grid: "#222a28",
  text: "#8a9692",
  panel: "#151a19",
} as const;

const percentTick = (value: number) => `${value}%`;

/** Bars of each wallet's share of supply: now, and before the last sell when `compare`. */
export function SupplyChart({ rows, compare }: { rows: ShareRow[]; compare: boolean }) {
  return (
    <div className="h-64 w-full" data-testid="supply-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid stroke={COLORS.grid} vertical={false} />
          <XAxis
            dataKey="label"
            stroke={COLORS.text}
            tick={{ fontSize: 10 }}
            interval="preserveStartEnd"
          />
          <YAxis
            stroke={COLORS.text}
            tick={{ fontSize: 10 }}
            tickFormatter={percentTick}
            width={48}
          />
          <Tooltip
            cursor={{ fill: "#ffffff08" }}
            contentStyle={{ background: COLORS.panel, border: `1px solid ${COLORS.grid}` }}
            formatter={(value) => formatPercent(Number(value))}
          />
          {compare && <Legend wrapperStyle={{ fontSize: 11 }} itemSorter="dataKey" />}
          {/* Always mounted, hidden until a sell: recharts draws bars in the order they mount. */}
          <Bar
            dataKey="before"
            name="before sell"
            fill={COLORS.before}
            hide={!compare}
            isAnimationActive={false}
          />
          <Bar
            dataKey="now"
            name={compare ? "after sell" : "share of supply"}
            fill={COLORS.now}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
