import type { WalletBalance } from "@bundler/shared";
import { flexRender, type Table } from "@tanstack/react-table";
import type { WalletSelection } from "../hooks/use-wallet-selection.ts";

const SORT_MARKS = { asc: " ↑", desc: " ↓" } as const;

/** The wallets as rows with a checkbox each; scrolls past 400 px. Clicking a row toggles it. */
export function WalletSelectorTable({
  table,
  selection,
}: {
  table: Table<WalletBalance>;
  selection: WalletSelection;
}) {
  const rows = table.getRowModel().rows;
  return (
    <div
      className="max-h-[400px] overflow-y-auto rounded-sm border border-line"
      data-testid="wallet-list"
    >
      <table className="w-full text-left text-xs">
        <thead className="sticky top-0 bg-raised text-faint">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              <th className="w-8 px-2 py-2">
                <span className="sr-only">Selected</span>
              </th>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                return (
                  <th
                    key={header.id}
                    className={`px-2 py-2 font-normal ${header.column.id === "address" ? "" : "text-right"}`}
                    aria-sort={sorted ? (sorted === "asc" ? "ascending" : "descending") : undefined}
                  >
                    {header.column.getCanSort() ? (
                      <button
                        type="button"
                        className="hover:text-accent"
                        onClick={header.column.getToggleSortingHandler()}
                      >
                        {flexRender(header.column.columnDef.header, header.getContext())}
                        {sorted ? SORT_MARKS[sorted] : ""}
                      </button>
                    ) : (
                      flexRender(header.column.columnDef.header, header.getContext())
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {rows.map((row) => {
            const checked = selection.isSelected(row.original.address);
            return (
              <tr
                key={row.id}
                data-testid="wallet-row"
                data-address={row.original.address}
                aria-selected={checked}
                onClick={() => selection.toggle(row.original.address)}
                className={`cursor-pointer border-t border-line ${checked ? "bg-accent-soft" : "hover:bg-raised"}`}
              >
                <td className="px-2 py-1.5">
                  <input
                    type="checkbox"
                    aria-label={`Select ${row.original.address}`}
                    checked={checked}
                    onClick={(e) => e.stopPropagation()}
                    onChange={() => selection.toggle(row.original.address)}
                    className="accent-accent"
                  />
                </td>
                {row.getVisibleCells().map((cell) => (
                  <td
                    key={cell.id}
                    className={`px-2 py-1.5 ${cell.column.id === "address" ? "" : "text-right tabular-nums"}`}
                  >
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            );
          })}
          {rows.length === 0 && (
            <tr>
              <td colSpan={4} className="px-2 py-4 text-center text-faint">
                No wallet matches.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
