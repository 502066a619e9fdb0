import { plural, type WalletBalance } from "@bundler/shared";
import {
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  type SortingState,
  useReactTable,
} from "@tanstack/react-table";
import { useMemo, useState } from "react";
import { Input } from "../../../components/ui/input.tsx";
import { Section } from "../../../components/ui/section.tsx";
import type { WalletSelection } from "../hooks/use-wallet-selection.ts";
import { hasBnb, holdsTokens } from "../utils/wallet-filters.ts";
import { walletColumns } from "./wallet-columns.tsx";
import { WalletSelectorTable } from "./wallet-selector-table.tsx";

type SortChoice = "none" | "desc" | "asc";

const sortingFor = (choice: SortChoice): SortingState =>
  choice === "none" ? [] : [{ id: "tokens", desc: choice === "desc" }];

const choiceOf = (sorting: SortingState): SortChoice => {
  const first = sorting[0];
  return !first ? "none" : first.desc ? "desc" : "asc";
};

/**
 * The wallet selector: search by address, sort by token balance, shortcuts that select what
 * the list shows ([select all], [non-empty], [has BNB]) or nothing ([clear]).
 */
export function WalletSelector({
  balances,
  selection,
  explorerUrl,
}: {
  balances: WalletBalance[];
  selection: WalletSelection;
  explorerUrl: string | null;
}) {
  const [search, setSearch] = useState("");
  const [sorting, setSorting] = useState<SortingState>([]);
  // A new filter array every render would make the table recompute and reset its state in a loop.
  const columnFilters = useMemo(() => (search ? [{ id: "address", value: search }] : []), [search]);
  const columns = useMemo(() => walletColumns(explorerUrl), [explorerUrl]);
  const table = useReactTable({
    data: balances,
    columns,
    state: { sorting, columnFilters },
    onSortingChange: setSorting,
    // There are no pages to go back to: nothing to reset when the rows change.
    autoResetAll: false,
    getRowId: (wallet) => wallet.address,
    getCoreRowModel: getCoreRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  const shown = table.getRowModel().rows.map((row) => row.original);
  const selectShown = (keep: (wallet: WalletBalance) => boolean) =>
    selection.replace(shown.filter(keep).map((wallet) => wallet.address));
  const selectedCount = selection.pick(balances.map((w) => w.address)).length;

  const shortcut = "text-dim hover:text-accent";
  return (
    <Section
      title="Wallets"
      aside={
        <span className="text-xs text-dim" data-testid="selection-count">
          {selectedCount} of {plural(balances.length, "wallet")} selected
        </span>
      }
    >
      <div className="flex flex-wrap items-center gap-2">
        <Input
          aria-label="Search wallets by address"
          placeholder="search address…"
          spellCheck={false}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          className="min-w-48 flex-1"
        />
        <select
          aria-label="Sort by token balance"
          value={choiceOf(sorting)}
          onChange={(e) => setSorting(sortingFor(e.target.value as SortChoice))}
          className="rounded-sm border border-line-strong bg-ink px-2 py-2 text-fg focus:border-accent focus:outline-none"
        >
          <option value="none">launch order</option>
          <option value="desc">tokens: high to low</option>
          <option value="asc">tokens: low to high</option>
        </select>
      </div>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        <button type="button" className={shortcut} onClick={selection.clear}>
          [clear]
        </button>
        <button type="button" className={shortcut} onClick={() => selectShown(() => true)}>
          [select all]
        </button>
        <button type="button" className={shortcut} onClick={() => selectShown(holdsTokens)}>
          [non-empty]
        </button>
        <button type="button" className={shortcut} onClick={() => selectShown(hasBnb)}>
          [has BNB]
        </button>
      </div>
      <WalletSelectorTable table={table} selection={selection} />
    </Section>
  );
}
