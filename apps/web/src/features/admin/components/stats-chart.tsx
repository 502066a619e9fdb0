import type { AdminStats } from "@bundler/shared";
import { BarLineChart, CHART_COLORS } from "../../../components/charts/bar-line-chart.tsx";

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
    <BarLineChart
      data={chartPoints(daily)}
      testId="stats-chart"
      heightClass="h-64"
      maxBarSize={24}
      minTickGap={16}
      left={{
        key: "launches",
        name: "launches",
        kind: "bar",
        color: CHART_COLORS.green,
        axisWidth: 32,
        integers: true,
      }}
      right={{
        key: "revenue",
        name: "revenue (BNB)",
        kind: "line",
        color: CHART_COLORS.gold,
        axisWidth: 48,
      }}
    />
  );
}
