import type { WalletBalance } from "@bundler/shared";
import { type ColumnDef, createColumnHelper } from "@tanstack/react-table";
import { AddressLink } from "../../../components/ui/address-link.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { shortAddress } from "../../../lib/short-address.ts";
import { formatTokens, toUnits } from "../utils/token-amount.ts";
import { compareTokens, matchesAddress } from "../utils/wallet-filters.ts";

const column = createColumnHelper<WalletBalance>();

/**
 * The wallet table's columns; selection is drawn by the table itself from the page's state.
 * The address links its page (explorer, or the app's own address page on the local chain) in a
 * new tab; clicking it does not toggle the row.
 */
export const walletColumns = (explorerUrl: string | null): ColumnDef<WalletBalance, string>[] => [
  column.accessor("address", {
    header: "Wallet",
    enableSorting: false,
    filterFn: (row, _id, search: string) => matchesAddress(row.original, search),
    cell: (info) => (
      <AddressLink
        address={info.getValue()}
        explorerUrl={explorerUrl}
        title={info.getValue()}
        onClick={(e) => e.stopPropagation()}
        className="text-fg underline decoration-dotted hover:text-accent"
      >
        {shortAddress(info.getValue())}
      </AddressLink>
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
