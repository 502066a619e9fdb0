import type { PreflightCheck } from "@bundler/shared";
import { type ColumnDef, createColumnHelper } from "@tanstack/react-table";
import { Link } from "react-router";
import { ContentLayout } from "../../../components/layouts/content-layout.tsx";
import { DataTable } from "../../../components/ui/data-table.tsx";
import { formatDateTime } from "../../../lib/format-date.ts";
import { usePreflight } from "../api/get-preflight.ts";
import { ADMIN_MESSAGES } from "../utils/admin-messages.ts";

const STATUS: Record<PreflightCheck["status"], { label: string; className: string }> = {
  ok: { label: "ok", className: "text-ok" },
  warning: { label: "warning", className: "text-accent" },
  failed: { label: "FAILED", className: "text-bad" },
  skipped: { label: "skipped", className: "text-dim" },
};

const column = createColumnHelper<PreflightCheck>();
const columns = [
  column.accessor("status", {
    header: "Status",
    cell: (info) => {
      const { label, className } = STATUS[info.getValue()];
      return <span className={`whitespace-nowrap ${className}`}>{label}</span>;
    },
  }),
  column.accessor("area", { header: "Area" }),
  column.accessor("name", {
    header: "Check",
    cell: (info) => (
      <>
        {info.getValue()}
        {info.row.original.essential && <span className="text-dim"> (essential)</span>}
      </>
    ),
  }),
  column.accessor("detail", { header: "What it found" }),
  column.accessor("fix", { header: "What to do", cell: (info) => info.getValue() ?? "" }),
] as ColumnDef<PreflightCheck, unknown>[];

/**
 * /admin/preflight (superadmins): the setup proves itself before money moves. Every check reads
 * (the RPC, the launchpad's contracts, four.meme's API, the builders, the database, the keys),
 * none sends; `npm run preflight` prints the same.
 */
export function PreflightPage() {
  const preflight = usePreflight();
  const result = preflight.data;
  return (
    <ContentLayout title="Preflight">
      <div className="flex flex-col gap-4">
        <div className="flex items-center gap-4">
          <Link to="/admin" className="text-dim hover:text-accent">
            [back]
          </Link>
          <button
            type="button"
            className="text-dim hover:text-accent disabled:opacity-50"
            disabled={preflight.isFetching}
            onClick={() => void preflight.refetch()}
          >
            {preflight.isFetching ? "[checking...]" : "[check again]"}
          </button>
        </div>
        {preflight.isPending && <p className="text-dim">checking the setup...</p>}
        {preflight.isError && !result && <p className="text-bad">{ADMIN_MESSAGES.loadFailed}</p>}
        {result && (
          <>
            <p className={result.ready ? "text-ok" : "text-bad"} data-testid="preflight-verdict">
              {result.ready
                ? `Ready: every essential check passed on ${result.chain}.`
                : `Not ready: an essential check failed on ${result.chain}. Fix what it says before any money moves.`}
            </p>
            <p className="text-xs text-dim">checked {formatDateTime(result.checkedAt)}</p>
            <div className="hidden sm:block">
              <DataTable
                data={result.checks}
                columns={columns}
                rowTestId="preflight-row"
                look="prose"
              />
            </div>
            {/* A phone's width: one check a block, its words under its name. */}
            <ul className="flex flex-col gap-2 sm:hidden">
              {result.checks.map((check) => (
                <li
                  key={`${check.area}:${check.name}`}
                  data-testid="preflight-item"
                  className="rounded-sm border border-line px-3 py-2 text-sm [overflow-wrap:anywhere]"
                >
                  <p>
                    <span className={STATUS[check.status].className}>
                      {STATUS[check.status].label}
                    </span>{" "}
                    <span className="text-dim">{check.area}:</span> {check.name}
                    {check.essential && <span className="text-dim"> (essential)</span>}
                  </p>
                  <p className="text-dim">{check.detail}</p>
                  {check.fix && <p className="text-accent">What to do: {check.fix}</p>}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </ContentLayout>
  );
}
