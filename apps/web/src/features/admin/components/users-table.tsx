import type { AdminSortField, AdminUserRow } from "@bundler/shared";
import {
  type ColumnDef,
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  useReactTable,
} from "@tanstack/react-table";
import { Link, useNavigate } from "react-router";
import { formatBnb } from "../../../lib/bnb.ts";
import { formatDateTime } from "../../../lib/format-date.ts";
import type { UserSort } from "../utils/user-sort.ts";

const column = createColumnHelper<AdminUserRow>();

/** The columns the server sorts by (SPEC §9), with the rest shown unsortable. */
const columns = [
  column.accessor("key", {
    header: "Key",
    cell: (info) => (
      <Link
        to={`/admin/key/${info.row.original._id}`}
        className="text-fg underline decoration-dotted hover:text-accent"
        onClick={(event) => event.stopPropagation()}
      >
        {info.getValue().slice(0, 6)}…
      </Link>
    ),
  }),
  column.accessor("deviceId", {
    header: "Device ID",
    enableSorting: false,
    cell: (info) => {
      const deviceId = info.getValue() ?? "";
      // A browser's device id is a uuid: its start tells devices apart, the whole is on hover.
      return (
        <span title={deviceId}>
          {deviceId.length > 20 ? `${deviceId.slice(0, 13)}…` : deviceId || "—"}
        </span>
      );
    },
  }),
  column.accessor("role", { header: "Role" }),
  column.accessor("isActive", {
    header: "Active",
    cell: (info) =>
      info.getValue() ? (
        <span className="text-ok">active</span>
      ) : (
        <span className="text-bad">off</span>
      ),
  }),
  column.accessor("launchCount", { header: "Launches" }),
  column.accessor("totalSpent", {
    header: "Total Spent",
    cell: (info) => `${formatBnb(info.getValue())} BNB`,
  }),
  column.accessor("createdAt", {
    header: "Created",
    enableSorting: false,
    cell: (info) => formatDateTime(info.getValue()),
  }),
  column.accessor("lastUsedAt", {
    header: "Last Used",
    enableSorting: false,
    cell: (info) => {
      const value = info.getValue();
      return value ? formatDateTime(value) : "—";
    },
  }),
] as ColumnDef<AdminUserRow, unknown>[];

export interface UsersTableProps {
  users: AdminUserRow[];
  sort: UserSort;
  onSort: (field: AdminSortField) => void;
  /** Whether these are a search's results (which the server found across every user). */
  searched: boolean;
}

/** One page of users, sorted and searched by the server. Rows open the user. */
export function UsersTable({ users, sort, onSort, searched }: UsersTableProps) {
  const navigate = useNavigate();
  const table = useReactTable({
    data: users,
    columns,
    getRowId: (user) => user._id,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
  });
  const rows = table.getRowModel().rows;

  return (
    <div className="overflow-x-auto rounded-sm border border-line">
      <table className="w-full text-left text-sm">
        <thead className="bg-raised text-xs text-faint">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const field = header.column.id as AdminSortField;
                const sortable = header.column.getCanSort();
                const active = sortable && sort.sortField === field;
                const label = flexRender(header.column.columnDef.header, header.getContext());
                return (
                  <th
                    key={header.id}
                    className="whitespace-nowrap px-3 py-2 font-normal"
                    aria-sort={
                      active
                        ? sort.sortDirection === "asc"
                          ? "ascending"
                          : "descending"
                        : undefined
                    }
                  >
                    {sortable ? (
                      <button
                        type="button"
                        onClick={() => onSort(field)}
                        className={`hover:text-accent ${active ? "text-accent" : ""}`}
                      >
                        {label}
                        <span aria-hidden="true">
                          {active ? (sort.sortDirection === "asc" ? " ▲" : " ▼") : " ·"}
                        </span>
                      </button>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.id}
              data-testid="user-row"
              onClick={() => navigate(`/admin/key/${row.original._id}`)}
              className="cursor-pointer border-t border-line hover:bg-raised"
            >
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className="whitespace-nowrap px-3 py-2 tabular-nums">
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={columns.length} className="px-3 py-4 text-center text-dim">
                {searched ? "No user matches the search." : "No users yet."}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
