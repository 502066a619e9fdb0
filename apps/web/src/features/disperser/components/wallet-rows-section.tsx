import { Button } from "../../../components/ui/button.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { isAddress, type WalletRow, walletAmount } from "../utils/dispersal-form.ts";
import type { MarkedRow } from "../utils/marked-row.ts";
import { WALLET_FILE_ACCEPT } from "../utils/wallet-file.ts";

/** The destinations: a manual grid of address and amount, a file upload, the bundler import. */
export function WalletRowsSection({
  rows,
  buffer,
  marked = null,
  canImport,
  onAdd,
  onRemove,
  onChange,
  onUpload,
  onImport,
}: {
  rows: readonly WalletRow[];
  buffer: string;
  /** The row the server refused, marked until the grid changes. */
  marked?: MarkedRow | null;
  /** The launch page handed wallets over: "Import Bundler Wallets" is offered. */
  canImport: boolean;
  onAdd: () => void;
  onRemove: (id: number) => void;
  onChange: (id: number, patch: Partial<Pick<WalletRow, "address" | "amount">>) => void;
  onUpload: (file: File) => void;
  onImport: () => void;
}) {
  return (
    <Section
      title="Wallets"
      aside={
        <label className="cursor-pointer text-dim hover:text-accent">
          [upload csv/txt]
          <input
            type="file"
            accept={WALLET_FILE_ACCEPT}
            aria-label="Wallet CSV or TXT file"
            className="sr-only"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) onUpload(file);
              e.target.value = "";
            }}
          />
        </label>
      }
    >
      <p className="text-xs text-faint">
        One destination per row. Files hold one <span className="text-dim">address,amount</span> per
        line; a header line is fine. Rows without a valid address are skipped.
      </p>
      {rows.length === 0 ? (
        <p className="py-4 text-center text-faint" data-testid="wallet-rows-empty">
          No wallets yet.
        </p>
      ) : (
        <div className="max-h-[28rem] overflow-y-auto">
          <table className="w-full text-left" aria-label="Destination wallets">
            <thead className="text-xs text-faint">
              <tr>
                <th className="w-8 py-1 font-normal">#</th>
                <th className="py-1 font-normal">address</th>
                <th className="w-24 py-1 font-normal sm:w-36">amount (BNB)</th>
                <th className="hidden w-28 py-1 text-right font-normal sm:table-cell">receives</th>
                <th className="w-8 py-1" />
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => {
                const n = index + 1;
                const refused = marked?.id === row.id ? marked : null;
                const invalid =
                  (row.address.trim() !== "" && !isAddress(row.address)) ||
                  refused?.input === "address";
                const badAmount = refused?.input === "amount";
                return (
                  <tr
                    key={row.id}
                    data-testid="wallet-row"
                    data-refused={refused ? "true" : undefined}
                    className={refused ? "bg-bad/10" : undefined}
                  >
                    <td className="py-1 pr-2 text-xs text-faint">{n}</td>
                    <td className="py-1 pr-2">
                      <Input
                        aria-label={`Address ${n}`}
                        aria-invalid={invalid || undefined}
                        placeholder="0x..."
                        spellCheck={false}
                        value={row.address}
                        onChange={(e) => onChange(row.id, { address: e.target.value })}
                        className={`py-1.5 text-xs ${invalid ? "border-bad/70! text-bad!" : ""}`}
                        title={
                          refused?.input === "address"
                            ? refused.message
                            : invalid
                              ? "Not a valid address: this row is skipped"
                              : undefined
                        }
                      />
                    </td>
                    <td className="py-1 pr-2">
                      <Input
                        aria-label={`Amount ${n}`}
                        aria-invalid={badAmount || undefined}
                        title={badAmount ? refused?.message : undefined}
                        inputMode="decimal"
                        placeholder="e.g. 0.1"
                        value={row.amount}
                        onChange={(e) => onChange(row.id, { amount: e.target.value })}
                        className={`py-1.5 text-xs ${badAmount ? "border-bad/70! text-bad!" : ""}`}
                      />
                    </td>
                    <td className="hidden py-1 pr-2 text-right text-xs tabular-nums text-dim sm:table-cell">
                      {isAddress(row.address) ? formatBnb(walletAmount(row.amount, buffer)) : "—"}
                    </td>
                    <td className="py-1 text-right">
                      <button
                        type="button"
                        aria-label={`Delete row ${n}`}
                        className="px-1 text-faint hover:text-bad"
                        onClick={() => onRemove(row.id)}
                      >
                        [x]
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {marked && (
        <p className="text-xs text-bad" role="alert" data-testid="refused-row">
          Row {rows.findIndex((row) => row.id === marked.id) + 1}: {marked.message}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" onClick={onAdd}>
          Add Row
        </Button>
        {canImport && (
          <Button variant="secondary" onClick={onImport}>
            Import Bundler Wallets
          </Button>
        )}
      </div>
    </Section>
  );
}
