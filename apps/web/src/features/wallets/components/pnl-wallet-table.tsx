import type { PnlDrift, PnlWallet } from "@bundler/shared";
import { type ColumnDef, createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { AddressLink } from "../../../components/ui/address-link.tsx";
import { DataTable } from "../../../components/ui/data-table.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { shortAddress } from "../../../lib/short-address.ts";
import { bnbFigure, weiOf } from "../utils/pnl-money.ts";
import { formatTokens, toUnits } from "../utils/token-amount.ts";

/** A wallet's row: its own figures and how its balance reconciles with the ledger. */
export interface PnlWalletRow extends PnlWallet {
  drift: PnlDrift | null;
}

/** Each wallet with its reconciliation, matched by address. */
export const walletRows = (
  wallets: readonly PnlWallet[],
  drift: readonly PnlDrift[],
): PnlWalletRow[] => {
  const byAddress = new Map(drift.map((entry) => [entry.address.toLowerCase(), entry]));
  return wallets.map((wallet) => ({
    ...wallet,
    drift: byAddress.get(wallet.address.toLowerCase()) ?? null,
  }));
};

const column = createColumnHelper<PnlWalletRow>();
const bnb = (wei: string) => bnbFigure(weiOf(wei));

/** What the Drift column says, under the table. */
export const DRIFT_LEGEND =
  "Drift: whether the wallet's BNB on chain matches the ledger (its balance before the launch, less what it paid, plus its sales, less its empties). ok: within 0.1%; ⚠: off by more, a transfer the app did not make; …: a transaction of ours is on its way.";

function DriftCell({ drift }: { drift: PnlDrift | null }) {
  if (!drift) return <span className="text-faint">—</span>;
  if (drift.pending)
    return (
      <span
        className="text-faint"
        title="A transaction of ours for this wallet is on its way: judged once the ledger has it."
      >
        …
      </span>
    );
  if (!drift.flagged)
    return (
      <span className="text-ok" title="The chain holds what the ledger says, within 0.1%.">
        ok
      </span>
    );
  return (
    <span
      className="text-bad"
      data-testid="pnl-drift-flag"
      title={`The chain holds ${formatBnb(weiOf(drift.chainWei))} BNB, the ledger says ${formatBnb(weiOf(drift.ledgerWei))}: a transfer the app did not make.`}
    >
      ⚠ {drift.percent.toFixed(2)}%
    </span>
  );
}

const columns = (explorerUrl: string | null, taxed: boolean) =>
  [
    column.accessor("address", {
      header: "Wallet",
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
    column.accessor("role", { header: "Role" }),
    column.accessor("costWei", { header: "Cost (BNB)", cell: (info) => bnb(info.getValue()) }),
    column.accessor("proceedsWei", {
      header: "Proceeds (BNB)",
      cell: (info) => bnb(info.getValue()),
    }),
    column.accessor("emptiedWei", {
      header: "Emptied (BNB)",
      cell: (info) => bnb(info.getValue()),
    }),
    column.accessor("tokens", {
      header: "Tokens",
      cell: (info) => formatTokens(toUnits(info.getValue())),
    }),
    column.accessor("exitWei", {
      header: "Exit value (BNB)",
      cell: (info) => bnb(info.getValue()),
    }),
    ...(taxed
      ? [
          column.accessor("taxTokens", {
            header: "Tax (tokens)",
            cell: (info) => (
              <span data-testid="pnl-wallet-tax">
                {formatTokens(toUnits(info.getValue() ?? "0"))}
              </span>
            ),
          }),
        ]
      : []),
    column.accessor("drift", {
      header: "Drift",
      cell: (info) => <DriftCell drift={info.getValue()} />,
    }),
  ] as ColumnDef<PnlWalletRow, unknown>[];

/** Per wallet: only what that wallet paid and received itself, and whether its balance agrees. */
export function PnlWalletTable({
  wallets,
  drift,
  explorerUrl,
  taxed = false,
}: {
  wallets: readonly PnlWallet[];
  drift: readonly PnlDrift[];
  explorerUrl: string | null;
  /** A tax token: each wallet's tax (tokens its DEX sales paid) gets a column. */
  taxed?: boolean;
}) {
  const defs = useMemo(() => columns(explorerUrl, taxed), [explorerUrl, taxed]);
  const rows = useMemo(() => walletRows(wallets, drift), [wallets, drift]);
  return (
    <>
      <DataTable
        data={rows}
        columns={defs}
        rowTestId="pnl-wallet-row"
        empty="No wallet has a ledger line yet."
        look="dense"
        rowClassName={(row) => (row.original.drift?.flagged ? "bg-bad/10" : "")}
      />
      {rows.length > 0 && (
        <p className="text-xs text-faint" data-testid="pnl-drift-legend">
          {DRIFT_LEGEND}
        </p>
      )}
    </>
  );
}
