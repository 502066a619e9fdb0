import { type ColumnDef, createColumnHelper } from "@tanstack/react-table";
import { useMemo } from "react";
import { AddressLink } from "../../../components/ui/address-link.tsx";
import { DataTable } from "../../../components/ui/data-table.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { shortAddress } from "../../../lib/short-address.ts";
import type { DryRunAnswer } from "../api/dry-run-rule.ts";
import { formatTokenText } from "../utils/rule-words.ts";
import { RulesReading } from "./rules-reading.tsx";

type DrySale = DryRunAnswer["sales"][number];
const column = createColumnHelper<DrySale>();

const columns = (explorerUrl: string | null) =>
  [
    column.accessor("address", {
      header: "Wallet",
      cell: (info) => (
        <AddressLink address={info.getValue()} explorerUrl={explorerUrl} title={info.getValue()}>
          {shortAddress(info.getValue())}
        </AddressLink>
      ),
    }),
    column.accessor("tokens", {
      header: "Tokens",
      cell: (info) => formatTokenText(info.getValue()),
    }),
    column.accessor("expectedBnb", {
      header: "BNB",
      cell: (info) => formatBnb(info.getValue()),
    }),
  ] as ColumnDef<DrySale, unknown>[];

/** A dry run's answer: the readings now, whether the rule would fire, and what it would sell. */
export function RulesDryRun({
  answer,
  explorerUrl,
}: {
  answer: DryRunAnswer;
  explorerUrl: string | null;
}) {
  const defs = useMemo(() => columns(explorerUrl), [explorerUrl]);
  return (
    <div
      className="flex flex-col gap-2 rounded-sm border border-line p-3"
      data-testid="rule-dry-run"
    >
      <p className="text-sm text-fg" data-testid="rule-dry-run-verdict">
        {answer.fires
          ? `It would fire now, at block ${answer.reading.block}.`
          : `It would not fire now, at block ${answer.reading.block}.`}
      </p>
      <RulesReading reading={answer.reading} testId="rule-dry-run-reading" />
      <DataTable
        data={answer.sales}
        columns={defs}
        rowTestId="rule-dry-run-sale"
        empty="No wallet holds tokens to sell."
        look="dense"
      />
      <p className="text-sm text-fg" data-testid="rule-dry-run-total">
        The sales would fetch {formatBnb(answer.expectedBnb)} BNB in total.
      </p>
    </div>
  );
}
