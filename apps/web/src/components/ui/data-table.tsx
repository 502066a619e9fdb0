import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  type Row,
  useReactTable,
} from "@tanstack/react-table";

const LOOK = {
  /** Lists on a page: one line per row, numbers aligned. */
  normal: {
    frame: "overflow-x-auto rounded-sm border border-line",
    table: "w-full text-left text-sm",
    head: "bg-raised text-xs text-faint",
    th: "px-3 py-2 font-normal",
    td: "whitespace-nowrap px-3 py-2 tabular-nums",
  },
  /** Rows of sentences (checks, findings): words wrap, long addresses break, nothing scrolls. */
  prose: {
    frame: "rounded-sm border border-line",
    table: "w-full text-left text-sm",
    head: "bg-raised text-xs text-faint",
    th: "px-3 py-2 font-normal",
    td: "px-3 py-2 [overflow-wrap:anywhere]",
  },
  /** A long list in a side panel: small type, scrolls under a sticky header. */
  dense: {
    frame: "max-h-[320px] overflow-y-auto rounded-sm border border-line",
    table: "w-full text-left text-xs",
    head: "sticky top-0 bg-raised text-faint",
    th: "px-2 py-2 font-normal",
    td: "px-2 py-1.5 tabular-nums",
  },
} as const;

/**
 * A plain @tanstack/react-table table: the app's lists that need no sorting or paging of their
 * own. `rowTestId` marks each row; `empty` is shown instead of an empty table when given.
 */
export function DataTable<T>({
  data,
  columns,
  rowTestId,
  empty,
  look = "normal",
  rowClassName,
}: {
  data: T[];
  columns: ColumnDef<T, unknown>[];
  rowTestId: string;
  empty?: string;
  look?: keyof typeof LOOK;
  rowClassName?: (row: Row<T>) => string;
}) {
  const table = useReactTable({ data, columns, getCoreRowModel: getCoreRowModel() });
  if (data.length === 0 && empty !== undefined) return <p className="text-sm text-dim">{empty}</p>;
  const style = LOOK[look];
  return (
    <div className={style.frame}>
      <table className={style.table}>
        <thead className={style.head}>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} className={style.th}>
                  {flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              data-testid={rowTestId}
              className={`border-t border-line align-top ${rowClassName?.(row) ?? ""}`}
            >
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className={style.td}>
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
