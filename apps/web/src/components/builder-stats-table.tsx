import type { BuilderStats, BuilderStatsWindow } from "@bundler/shared";
import { type ColumnDef, createColumnHelper } from "@tanstack/react-table";
import { DataTable } from "./ui/data-table.tsx";

const blocks = (value: number | null) =>
  value === null ? "-" : Number.isInteger(value) ? String(value) : value.toFixed(1);

const column = createColumnHelper<BuilderStats>();
const columns = [
  column.accessor("builder", { header: "Builder" }),
  column.accessor("sent", { header: "Sent" }),
  column.accessor("accepted", { header: "Accepted" }),
  column.accessor("landed", { header: "Landed" }),
  column.accessor("landingShare", {
    header: "Share of landings",
    cell: (info) => `${Math.round(info.getValue() * 100)}%`,
  }),
  column.accessor("medianBlocks", {
    header: "Blocks to land (median)",
    cell: (info) => blocks(info.getValue()),
  }),
  column.accessor("p95Blocks", { header: "(p95)", cell: (info) => blocks(info.getValue()) }),
  column.accessor("topRefusals", {
    header: "Top refusals",
    cell: (info) => {
      const { refused, silent, skipped } = info.row.original;
      const reasons = info.getValue();
      return (
        <div className="flex flex-col gap-1 whitespace-normal [overflow-wrap:anywhere]">
          <span className="text-dim">
            {refused} refused, {silent} no answer{skipped > 0 ? `, ${skipped} not asked` : ""}
          </span>
          {reasons.map((r) => (
            <span key={r.reason}>
              {r.count}× {r.reason}
            </span>
          ))}
          {info.row.original.notLanded.map((r) => (
            <span key={`not landed: ${r.reason}`}>
              {r.count}× took it, did not land: {r.reason}
            </span>
          ))}
        </div>
      );
    },
  }),
] as ColumnDef<BuilderStats, unknown>[];

const windowName = (hours: number) =>
  hours % 24 === 0 && hours > 24 ? `${hours / 24} days` : `${hours} hours`;

/**
 * Each builder's record over each window (24 hours, 7 days): what it was sent, took and landed,
 * how many blocks its landings took, and its most frequent refusals in its own words.
 */
export function BuilderStatsTables({ windows }: { windows: BuilderStatsWindow[] }) {
  return (
    <div className="flex flex-col gap-4">
      {windows.map((w) => (
        <section
          key={w.hours}
          className="flex flex-col gap-2"
          data-testid={`builder-stats-${w.hours}h`}
        >
          <h3 className="text-sm text-fg">
            Last {windowName(w.hours)}:{" "}
            <span className="text-dim">
              {w.bundles} bundle{w.bundles === 1 ? "" : "s"} sent, {w.landed} landed
            </span>
          </h3>
          <DataTable
            data={w.builders}
            columns={columns}
            rowTestId="builder-stats-row"
            empty="No bundles sent."
          />
        </section>
      ))}
    </div>
  );
}
