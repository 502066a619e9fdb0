import type { Bump } from "@bundler/shared";
import { lazy, Suspense } from "react";
import { Section } from "../../../components/ui/section.tsx";

const BumpsChart = lazy(() => import("./bumps-chart.tsx").then((m) => ({ default: m.BumpsChart })));

/** The bumps over time; recharts loads only once there is something to draw. */
export function BumpsPanel({ bumps }: { bumps: Bump[] }) {
  return (
    <Section title="Bumps">
      {bumps.length === 0 ? (
        <p className="text-sm text-dim">No bumps yet: the chart fills in as the bumper runs.</p>
      ) : (
        <Suspense fallback={<div className="h-56 animate-pulse rounded-sm bg-raised" />}>
          <BumpsChart bumps={bumps} />
        </Suspense>
      )}
    </Section>
  );
}
