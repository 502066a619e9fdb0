import type { AdminClaim } from "@bundler/shared";
import { type ColumnDef, createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { Link } from "react-router";
import { AddressLink } from "../../../components/ui/address-link.tsx";
import { DataTable } from "../../../components/ui/data-table.tsx";
import { TxHash } from "../../../components/ui/tx-hash.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { formatDateTime } from "../../../lib/format-date.ts";
import { shortAddress } from "../../../lib/short-address.ts";
import { ClaimActions } from "./claim-actions.tsx";

const column = createColumnHelper<AdminClaim>();

function ClaimState({ claim, explorerUrl }: { claim: AdminClaim; explorerUrl: string | null }) {
  return (
    <div className="flex flex-col gap-0.5" data-testid="admin-claim-status">
      <span>{claim.status}</span>
      {claim.txHash && (
        <TxHash hash={claim.txHash} explorerUrl={explorerUrl} className="text-dim underline">
          {shortAddress(claim.txHash)}
        </TxHash>
      )}
      {claim.reason && <span className="whitespace-normal text-bad">{claim.reason}</span>}
    </div>
  );
}

const columns = (explorerUrl: string | null, withUser: boolean) =>
  [
    column.accessor("requestedAt", {
      header: "Date",
      cell: (info) => formatDateTime(info.getValue()),
    }),
    ...(withUser
      ? [
          column.accessor("keyPrefix", {
            header: "User",
            cell: (info) => (
              <Link
                to={`/admin/key/${info.row.original.userId}`}
                className="underline decoration-dotted hover:text-accent"
              >
                {info.getValue()}…
              </Link>
            ),
          }),
        ]
      : []),
    column.accessor("amount", {
      header: "Amount",
      cell: (info) => `${formatBnb(info.getValue())} BNB`,
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
    column.accessor("status", {
      header: "Status",
      cell: (info) => <ClaimState claim={info.row.original} explorerUrl={explorerUrl} />,
    }),
    column.display({
      id: "actions",
      header: "",
      cell: (info) => <ClaimActions claim={info.row.original} />,
    }),
  ] as ColumnDef<AdminClaim, unknown>[];

/** Referral claims with [complete] / [reject] on the pending ones; `withUser` names the claimant. */
export function AdminClaimsTable({
  claims,
  explorerUrl,
  withUser = false,
  empty,
}: {
  claims: AdminClaim[];
  explorerUrl: string | null;
  withUser?: boolean;
  empty: string;
}) {
  const defs = useMemo(() => columns(explorerUrl, withUser), [explorerUrl, withUser]);
  return <DataTable data={claims} columns={defs} rowTestId="admin-claim-row" empty={empty} />;
}
