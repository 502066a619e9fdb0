import type { AutosellFiring } from "@bundler/shared";
import { type ColumnDef, createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { DataTable } from "../../../components/ui/data-table.tsx";
import { TxHash } from "../../../components/ui/tx-hash.tsx";
import { shortAddress } from "../../../lib/short-address.ts";

const column = createColumnHelper<AutosellFiring>();

const STATES: Record<AutosellFiring["state"], string> = {
  selling: "selling",
  sent: "sent",
  failed: "failed",
  stopped: "stopped",
};

/** A firing that ended without selling all it was to: said in the warning colour. */
const ENDED_SHORT = new Set<AutosellFiring["state"]>(["failed", "stopped"]);

const columns = (explorerUrl: string | null, ladder: boolean) =>
  [
    ...(ladder
      ? [column.accessor("tier", { header: "Tier", cell: (info) => info.getValue() + 1 })]
      : []),
    column.accessor("block", { header: "Block" }),
    column.accessor("reading", {
      header: "Reading that fired it",
      cell: (info) =>
        info
          .getValue()
          .conditions.filter((entry) => entry.met)
          .map((entry) => entry.text)
          .join("; ") || "—",
    }),
    column.accessor("state", {
      header: "State",
      cell: (info) => {
        const { error } = info.row.original;
        return (
          <span
            className={ENDED_SHORT.has(info.getValue()) ? "text-bad" : ""}
            title={error ?? undefined}
          >
            {STATES[info.getValue()]}
            {error && `: ${error}`}
          </span>
        );
      },
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
  ] as ColumnDef<AutosellFiring, unknown>[];

/** A rule's firings, newest last: the tier, the block, what met the trigger, and the sales. */
export function RulesFirings({
  firings,
  ladder,
  explorerUrl,
}: {
  firings: AutosellFiring[];
  ladder: boolean;
  explorerUrl: string | null;
}) {
  const defs = useMemo(() => columns(explorerUrl, ladder), [explorerUrl, ladder]);
  return (
    <DataTable
      data={firings}
      columns={defs}
      rowTestId="rule-firing"
      empty="It has not fired yet."
      look="dense"
    />
  );
}
