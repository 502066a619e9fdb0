import type { AuditEntry } from "@bundler/shared";
import { type ColumnDef, createColumnHelper } from "@tanstack/react-table";
import { Link } from "react-router";
import { DataTable } from "../../../components/ui/data-table.tsx";
import { formatDateTime } from "../../../lib/format-date.ts";

const ACTION_LABELS: Record<AuditEntry["action"], string> = {
  role_change: "role change",
  active_change: "activation change",
  payment_key_view: "payment key view",
  claim_complete: "claim completed",
  claim_reject: "claim rejected",
  keys_export: "key backup download",
  news_publish: "news published",
  news_edit: "news edited",
  news_hide: "news hidden",
  news_show: "news shown again",
};

/** `{from: "user", to: "admin"}` → `from: user, to: admin`. */
const describeDetails = (details: AuditEntry["details"]): string =>
  details
    ? Object.entries(details)
        .map(
          ([name, value]) =>
            `${name}: ${typeof value === "string" ? value : JSON.stringify(value)}`,
        )
        .join(", ")
    : "";

const column = createColumnHelper<AuditEntry>();

const columns = [
  column.accessor("at", { header: "When", cell: (info) => formatDateTime(info.getValue()) }),
  column.accessor("actor", {
    header: "Who",
    cell: (info) => (
      <Link
        to={`/admin/key/${info.getValue().userId}`}
        className="underline decoration-dotted hover:text-accent"
      >
        {info.getValue().keyPrefix}… ({info.getValue().role})
      </Link>
    ),
  }),
  column.accessor("action", {
    header: "What",
    cell: (info) => <span data-testid="audit-action">{ACTION_LABELS[info.getValue()]}</span>,
  }),
  column.accessor("target", {
    header: "On",
    cell: (info) => {
      const target = info.getValue();
      return target.type === "user" ? (
        <Link
          to={`/admin/key/${target.id}`}
          className="underline decoration-dotted hover:text-accent"
        >
          user {target.id.slice(0, 8)}
        </Link>
      ) : (
        <span title={target.id}>
          {target.type} {target.id.slice(0, 8)}
        </span>
      );
    },
  }),
  column.accessor("reason", {
    header: "Reason",
    cell: (info) => <span className="whitespace-normal">{info.getValue() ?? "—"}</span>,
  }),
  column.accessor("details", {
    header: "Details",
    cell: (info) => (
      <span className="block max-w-xs whitespace-normal break-all text-dim">
        {describeDetails(info.getValue())}
      </span>
    ),
  }),
] as ColumnDef<AuditEntry, unknown>[];

/** The audit log: who did what, to what, when and why. */
export function AuditTable({ entries }: { entries: AuditEntry[] }) {
  return (
    <DataTable
      data={entries}
      columns={columns}
      rowTestId="audit-row"
      empty="Nothing on record yet."
    />
  );
}
