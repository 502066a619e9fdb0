import type { AdminDraftRow } from "@bundler/shared";
import { type ColumnDef, createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { AddressLink } from "../../../components/ui/address-link.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { DataTable } from "../../../components/ui/data-table.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { formatDateTime } from "../../../lib/format-date.ts";
import { shortAddress } from "../../../lib/short-address.ts";

const column = createColumnHelper<AdminDraftRow>();

const columns = (explorerUrl: string | null, onViewKey: (draft: AdminDraftRow) => void) =>
  [
    column.accessor("name", {
      header: "Name",
      cell: (info) => (
        <span>
          {info.getValue()}
          {info.row.original.deleted && <span className="ml-2 text-faint">(deleted)</span>}
        </span>
      ),
    }),
    column.accessor("symbol", { header: "Ticker" }),
    column.accessor("status", { header: "Status" }),
    column.accessor("paymentAddress", {
      header: "Payment Address",
      cell: (info) => {
        const address = info.getValue();
        return address ? (
          <AddressLink
            address={address}
            explorerUrl={explorerUrl}
            title={address}
            className="underline decoration-dotted hover:text-accent"
          >
            {shortAddress(address)}
          </AddressLink>
        ) : (
          "—"
        );
      },
    }),
    column.accessor("paymentAmount", {
      header: "Payment Amount",
      cell: (info) => {
        const amount = info.getValue();
        return amount ? `${formatBnb(amount)} BNB` : "—";
      },
    }),
    column.accessor("createdAt", {
      header: "Created",
      cell: (info) => formatDateTime(info.getValue()),
    }),
    column.display({
      id: "key",
      header: "",
      cell: (info) =>
        info.row.original.paymentAddress && (
          <Button variant="bracket" onClick={() => onViewKey(info.row.original)}>
            [payment key]
          </Button>
        ),
    }),
  ] as ColumnDef<AdminDraftRow, unknown>[];

/** SPEC §3's admin draft rows; a draft with a payment address offers its key viewer. */
export function DraftsTable({
  drafts,
  explorerUrl,
  onViewKey,
}: {
  drafts: AdminDraftRow[];
  explorerUrl: string | null;
  onViewKey: (draft: AdminDraftRow) => void;
}) {
  const defs = useMemo(() => columns(explorerUrl, onViewKey), [explorerUrl, onViewKey]);
  return <DataTable data={drafts} columns={defs} rowTestId="draft-row" empty="No drafts." />;
}
