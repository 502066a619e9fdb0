import type { AdminStats } from "@bundler/shared";
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
  launches: "#3fd17a",
  revenue: "#f0b90b",
  grid: "#222a28",
  text: "#8a9692",
  panel: "#151a19",
} as const;

interface Point {
  label: string;
  launches: number;
  revenue: number;
}

/** "2026-11-24" → "Nov 24" (the series is by UTC day). */
const dayLabel = (date: string): string =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

export const chartPoints = (daily: AdminStats["daily"]): Point[] =>
  daily.map((day) => ({
    label: dayLabel(day.date),
    launches: day.launches,
    revenue: Number(day.revenue),
  }));

/** Launches (bars, left axis) and revenue in BNB (line, right axis) per day. */
export function StatsChart({ daily }: { daily: AdminStats["daily"] }) {
  return (
    <div className="h-64 w-full" data-testid="stats-chart">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={chartPoints(daily)} margin={{ top: 8, right: 0, bottom: 8, left: 0 }}>
          <CartesianGrid stroke={COLORS.grid} vertical={false} />
          <XAxis dataKey="label" stroke={COLORS.text} tick={{ fontSize: 10 }} minTickGap={16} />
          <YAxis
            yAxisId="launches"
            stroke={COLORS.text}
            tick={{ fontSize: 10 }}
            allowDecimals={false}
            width={32}
          />
          <YAxis
            yAxisId="revenue"
            orientation="right"
            stroke={COLORS.text}
            tick={{ fontSize: 10 }}
            width={48}
          />
          <Tooltip
            contentStyle={{ background: COLORS.panel, border: `1px solid ${COLORS.grid}` }}
          />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          <Bar
            yAxisId="launches"
            dataKey="launches"
            name="launches"
            fill={COLORS.launches}
            fillOpacity={0.6}
            maxBarSize={24}
            isAnimationActive={false}
          />
          <Line
            yAxisId="revenue"
            dataKey="revenue"
            name="revenue (BNB)"
            stroke={COLORS.revenue}
            dot={false}
            isAnimationActive={false}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
