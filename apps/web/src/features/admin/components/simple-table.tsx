import { type ColumnDef, flexRender, getCoreRowModel, useReactTable } from "@tanstack/react-table";

/** A plain @tanstack/react-table table for the detail page's lists; `rowTestId` marks each row. */
export function SimpleTable<Row>({
  data,
  columns,
  rowTestId,
  empty,
}: {
  data: Row[];
  columns: ColumnDef<Row, unknown>[];
  rowTestId: string;
  empty: string;
}) {
  const table = useReactTable({ data, columns, getCoreRowModel: getCoreRowModel() });
  if (data.length === 0) return <p className="text-sm text-dim">{empty}</p>;
  return (
    <div className="overflow-x-auto rounded-sm border border-line">
      <table className="w-full text-left text-sm">
        <thead className="bg-raised text-xs text-faint">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} className="px-3 py-2 font-normal">
                  {flexRender(header.column.columnDef.header, header.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} data-testid={rowTestId} className="border-t border-line align-top">
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className="whitespace-nowrap px-3 py-2 tabular-nums">
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
