import { type AdminStats, plural } from "@bundler/shared";
import { lazy, Suspense } from "react";
import { Section } from "../../../components/ui/section.tsx";

const StatsChart = lazy(() => import("./stats-chart.tsx").then((m) => ({ default: m.StatsChart })));

/** Launches and revenue per day; recharts loads with this panel, not with the app. */
export function StatsChartPanel({ daily }: { daily: AdminStats["daily"] }) {
  return (
    <Section title={`Launches and revenue, last ${plural(daily.length, "day")}`}>
      <Suspense fallback={<div className="h-64 animate-pulse rounded-sm bg-raised" />}>
        <StatsChart daily={daily} />
      </Suspense>
    </Section>
  );
}
