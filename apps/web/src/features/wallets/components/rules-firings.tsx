import type { AutosellFiring, TxStatusEntry } from "@bundler/shared";
import { type ColumnDef, createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { DataTable } from "../../../components/ui/data-table.tsx";
import { TxHash } from "../../../components/ui/tx-hash.tsx";
import { shortAddress } from "../../../lib/short-address.ts";
import { useTxStatuses } from "../api/get-tx-statuses.ts";
import { type FiringOutcome, firingOutcome } from "../utils/firing-outcome.ts";

type FiringRow = AutosellFiring & { outcome: FiringOutcome };

const column = createColumnHelper<FiringRow>();

const columns = (explorerUrl: string | null, ladder: boolean) =>
  [
    ...(ladder
      ? [column.accessor("tier", { header: "Tier", cell: (info) => info.getValue() + 1 })]
      : []),
    column.accessor("block", { header: "Reading's block" }),
    column.accessor("reading", {
      header: "Reading that fired it",
      cell: (info) =>
        info
          .getValue()
          .conditions.filter((entry) => entry.met)
          .map((entry) => entry.text)
          .join("; ") || "—",
    }),
    column.accessor("outcome", {
      header: "Outcome",
      cell: (info) => {
        const { text, bad } = info.getValue();
        return (
          <span className={bad ? "text-bad" : ""} data-testid="firing-outcome">
            {text}
          </span>
        );
      },
    }),
    column.display({
      id: "sales-block",
      header: "Sales' block",
      cell: (info) => info.row.original.outcome.blocks.join(", ") || "—",
    }),
    column.accessor("transactions", {
      header: "Transactions",
      cell: (info) =>
        info.getValue().length === 0 ? (
          <span className="text-faint">none yet</span>
        ) : (
          <span className="flex flex-col">
            {info.getValue().map((hash) => (
              <TxHash key={hash} hash={hash} explorerUrl={explorerUrl}>
                {shortAddress(hash)}
              </TxHash>
            ))}
          </span>
        ),
    }),
  ] as ColumnDef<FiringRow, unknown>[];

/**
 * A rule's firings, newest last: the tier, the block whose reading fired it and what met the
 * trigger, its outcome (where its sales landed and what they fetched, or why it failed, their
 * statuses asked while any is pending), the sales' block and the transactions.
 */
export function RulesFirings({
  firings,
  ladder,
  explorerUrl,
}: {
  firings: AutosellFiring[];
  ladder: boolean;
  explorerUrl: string | null;
}) {
  const hashes = useMemo(() => firings.flatMap((f) => f.transactions), [firings]);
  const statuses = useTxStatuses(hashes).data as ReadonlyMap<string, TxStatusEntry> | undefined;
  const rows = useMemo(
    () => firings.map((firing) => ({ ...firing, outcome: firingOutcome(firing, statuses) })),
    [firings, statuses],
  );
  const defs = useMemo(() => columns(explorerUrl, ladder), [explorerUrl, ladder]);
  return (
    <DataTable
      data={rows}
      columns={defs}
      rowTestId="rule-firing"
      empty="It has not fired yet."
      look="dense"
    />
  );
}
