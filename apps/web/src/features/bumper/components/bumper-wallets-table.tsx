import type { BumperWallet } from "@bundler/shared";
import { type ColumnDef, createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { AddressLink } from "../../../components/ui/address-link.tsx";
import { DataTable } from "../../../components/ui/data-table.tsx";
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
  return (
    <DataTable
      data={wallets}
      columns={defs}
      rowTestId="bumper-wallet-row"
      look="dense"
      rowClassName={(row) => (row.original.isActive ? "bg-accent-soft" : "")}
    />
  );
}
