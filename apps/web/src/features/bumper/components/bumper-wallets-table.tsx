import type { BumperWallet } from "@bundler/shared";
import {
  type ColumnDef,
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  useReactTable,
} from "@tanstack/react-table";
import { useMemo } from "react";
import { AddressLink } from "../../../components/ui/address-link.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { shortAddress } from "../../../lib/short-address.ts";

const column = createColumnHelper<BumperWallet>();

const columns = (explorerUrl: string | null) =>
  [
    column.accessor("index", { header: "#", cell: (info) => info.getValue() + 1 }),
    column.accessor("address", {
      header: "Address",
      cell: (info) => (
        <AddressLink
          address={info.getValue()}
          explorerUrl={explorerUrl}
          title={info.getValue()}
          className="text-fg underline decoration-dotted hover:text-accent"
        >
          {shortAddress(info.getValue())}
        </AddressLink>
      ),
    }),
    column.accessor("balance", { header: "BNB", cell: (info) => formatBnb(info.getValue()) }),
    column.accessor("tokens", { header: "Tokens" }),
    column.accessor("isActive", {
      header: "Active",
      cell: (info) => (info.getValue() ? <span className="text-ok">● active</span> : ""),
    }),
  ] as ColumnDef<BumperWallet, unknown>[];

/** Every wallet the bumper used: each sell moves it to a new one. */
export function BumperWalletsTable({
  wallets,
  explorerUrl,
}: {
  wallets: BumperWallet[];
  explorerUrl: string | null;
}) {
  const defs = useMemo(() => columns(explorerUrl), [explorerUrl]);
  const table = useReactTable({ data: wallets, columns: defs, getCoreRowModel: getCoreRowModel() });
  return (
    <div className="max-h-[320px] overflow-y-auto rounded-sm border border-line">
      <table className="w-full text-left text-xs">
        <thead className="sticky top-0 bg-raised text-faint">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th key={header.id} className="px-2 py-2 font-normal">
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
              data-testid="bumper-wallet-row"
              className={`border-t border-line ${row.original.isActive ? "bg-accent-soft" : ""}`}
            >
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className="px-2 py-1.5 tabular-nums">
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
