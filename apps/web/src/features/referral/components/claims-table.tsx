import type { Claim } from "@bundler/shared";
import { type ColumnDef, createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { AddressLink } from "../../../components/ui/address-link.tsx";
import { DataTable } from "../../../components/ui/data-table.tsx";
import { TxHash } from "../../../components/ui/tx-hash.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { formatDateTime } from "../../../lib/format-date.ts";
import { shortAddress } from "../../../lib/short-address.ts";

const STATUS_CLASS: Record<Claim["status"], string> = {
  pending: "text-accent",
  completed: "text-ok",
  rejected: "text-bad",
};

function ClaimStatus({ claim, explorerUrl }: { claim: Claim; explorerUrl: string | null }) {
  return (
    <div className="flex flex-col gap-0.5">
      <span className={STATUS_CLASS[claim.status]} data-testid="claim-status">
        {claim.status}
      </span>
      {claim.txHash && (
        <TxHash hash={claim.txHash} explorerUrl={explorerUrl} className="text-dim underline">
          {shortAddress(claim.txHash)}
        </TxHash>
      )}
      {claim.reason && <span className="whitespace-normal text-faint">{claim.reason}</span>}
    </div>
  );
}

const column = createColumnHelper<Claim>();

const columns = (explorerUrl: string | null) =>
  [
    column.accessor("requestedAt", {
      header: "Date",
      cell: (info) => formatDateTime(info.getValue()),
    }),
    column.accessor("amount", {
      header: "Amount",
      cell: (info) => `${formatBnb(info.getValue())} BNB`,
    }),
    column.accessor("status", {
      header: "Status",
      cell: (info) => <ClaimStatus claim={info.row.original} explorerUrl={explorerUrl} />,
    }),
    column.accessor("receivingAddress", {
      header: "Receiving Address",
      cell: (info) => (
        <AddressLink
          address={info.getValue()}
          explorerUrl={explorerUrl}
          title={info.getValue()}
          className="underline decoration-dotted hover:text-accent"
        >
          {shortAddress(info.getValue())}
        </AddressLink>
      ),
    }),
  ] as ColumnDef<Claim, unknown>[];

/** SPEC §2's claim history: Date, Amount, Status, the receiving address shortened. */
export function ClaimsTable({
  claims,
  explorerUrl,
}: {
  claims: Claim[];
  explorerUrl: string | null;
}) {
  const defs = useMemo(() => columns(explorerUrl), [explorerUrl]);
  return <DataTable data={claims} columns={defs} rowTestId="claim-row" empty="No claims yet." />;
}
