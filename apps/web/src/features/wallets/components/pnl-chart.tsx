import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { CHART_COLORS } from "../../../components/charts/bar-line-chart.tsx";
import type { PnlChartPoint } from "../utils/pnl-points.ts";

// The theme's red (index.css --color-bad): what the bundle cost.
const COST_COLOR = "#ff5f56";

const SERIES = [
  { key: "cost", name: "cost", color: COST_COLOR },
  { key: "proceeds", name: "proceeds", color: CHART_COLORS.green },
  { key: "exit", name: "exit value", color: CHART_COLORS.gold },
] as const;

/** Hours and minutes; seconds too while the bundle's life fits in a few minutes. */
const timeTick = (withSeconds: boolean) => (at: number) =>
  new Date(at).toLocaleTimeString("en-US", {
    hour: "2-digit",
    minute: "2-digit",
    ...(withSeconds ? { second: "2-digit" } : {}),
  });

const bnbTick = (value: number) =>
  value.toLocaleString("en-US", { maximumSignificantDigits: 3, notation: "compact" });

/** Cost, proceeds and exit value over the bundle's life, in BNB, against time. */
export function PnlChart({ points }: { points: PnlChartPoint[] }) {
  const span = (points.at(-1)?.at ?? 0) - (points[0]?.at ?? 0);
  const time = timeTick(span < 10 * 60_000);
  return (
    <div className="h-56 w-full" data-testid="pnl-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={points} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid stroke={CHART_COLORS.grid} vertical={false} />
          <XAxis
            dataKey="at"
            type="number"
            scale="time"
            domain={["dataMin", "dataMax"]}
            tickFormatter={time}
            stroke={CHART_COLORS.text}
            tick={{ fontSize: 10 }}
            minTickGap={24}
          />
          <YAxis
            stroke={CHART_COLORS.text}
            tick={{ fontSize: 10 }}
            tickFormatter={bnbTick}
            width={48}
          />
          <Tooltip
            contentStyle={{
              background: CHART_COLORS.panel,
              border: `1px solid ${CHART_COLORS.grid}`,
            }}
            labelFormatter={(at) => new Date(Number(at)).toLocaleString("en-US")}
            formatter={(value) => `${Number(value).toFixed(4)} BNB`}
          />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          {SERIES.map((series) => (
            <Line
              key={series.key}
              type="stepAfter"
              dataKey={series.key}
              name={series.name}
              stroke={series.color}
              dot={points.length < 40 ? { r: 2 } : false}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
