import { BuilderStatsTables } from "../../../components/builder-stats-table.tsx";
import { useBuilderStats } from "../api/get-builder-stats.ts";

/**
 * The wallet manager's "Your builders": which builders took and landed your bundles over 24
 * hours and 7 days. Shown once any bundle of yours was sent in the last 7 days.
 */
export function BuilderStatsPanel() {
  const stats = useBuilderStats();
  const windows = stats.data?.windows;
  if (!windows?.some((w) => w.bundles > 0)) return null;
  return (
    <section className="mt-8 flex flex-col gap-2" data-testid="builder-stats-panel">
      <h2 className="text-lg font-semibold text-fg">Your builders</h2>
      <p className="text-xs text-dim">
        Every bundle you sent (launches, sells, auto-sell waves, bumps), per builder: a landing is
        the builder whose tip is in the landed block.
      </p>
      <BuilderStatsTables windows={windows} />
    </section>
  );
}
