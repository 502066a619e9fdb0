import type { WalletBalance } from "@bundler/shared";
import { type ColumnDef, createColumnHelper } from "@tanstack/react-table";
import { formatBnb } from "../../../lib/bnb.ts";
import { shortAddress } from "../../../lib/short-address.ts";
import { formatTokens, toUnits } from "../utils/token-amount.ts";
import { compareTokens, matchesAddress } from "../utils/wallet-filters.ts";

const column = createColumnHelper<WalletBalance>();

/** The wallet table's columns; selection is drawn by the table itself from the page's state. */
export const walletColumns: ColumnDef<WalletBalance, string>[] = [
  column.accessor("address", {
    header: "Wallet",
    enableSorting: false,
    filterFn: (row, _id, search: string) => matchesAddress(row.original, search),
    cell: (info) => (
      <span title={info.getValue()} className="text-fg">
        {shortAddress(info.getValue())}
      </span>
    ),
  }),
  column.accessor("tokenUnits", {
    id: "tokens",
    header: "Tokens",
    sortingFn: (a, b) => compareTokens(a.original, b.original),
    sortDescFirst: true,
    cell: (info) => formatTokens(toUnits(info.getValue())),
  }),
  column.accessor("bnbBalance", {
    id: "bnb",
    header: "BNB",
    enableSorting: false,
    cell: (info) => formatBnb(info.getValue()),
  }),
];
