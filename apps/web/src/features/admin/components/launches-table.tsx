import type { AdminLaunch } from "@bundler/shared";
import { type ColumnDef, createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { AddressLink } from "../../../components/ui/address-link.tsx";
import { DataTable } from "../../../components/ui/data-table.tsx";
import { formatDateTime } from "../../../lib/format-date.ts";
import { shortAddress } from "../../../lib/short-address.ts";

const column = createColumnHelper<AdminLaunch>();

const columns = (explorerUrl: string | null) =>
  [
    column.accessor("ticker", {
      header: "Token",
      cell: (info) => (
        <span className="flex items-center gap-2">
          {info.row.original.image && (
            <img src={info.row.original.image} alt="" className="size-6 rounded-sm object-cover" />
          )}
          {info.getValue()}
        </span>
      ),
    }),
    column.accessor("address", {
      header: "Address",
      cell: (info) => (
        <AddressLink
          address={info.getValue()}
          explorerUrl={explorerUrl}
          kind="token"
          title={info.getValue()}
          className="underline decoration-dotted hover:text-accent"
        >
          {shortAddress(info.getValue())}
        </AddressLink>
      ),
    }),
    column.accessor("walletCount", { header: "Wallets" }),
    column.accessor("createdAt", {
      header: "Launched",
      cell: (info) => formatDateTime(info.getValue()),
    }),
  ] as ColumnDef<AdminLaunch, unknown>[];

/** SPEC §3 Launch rows: ticker and logo, token address, wallet count, when. */
export function LaunchesTable({
  launches,
  explorerUrl,
}: {
  launches: AdminLaunch[];
  explorerUrl: string | null;
}) {
  const defs = useMemo(() => columns(explorerUrl), [explorerUrl]);
  return (
    <DataTable data={launches} columns={defs} rowTestId="launch-row" empty="No launches yet." />
  );
}
