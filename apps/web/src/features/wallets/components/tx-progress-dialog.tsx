import { useId } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Modal } from "../../../components/ui/modal.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { formatBnb } from "../../../lib/bnb.ts";
import { useTxProgress } from "../hooks/use-tx-progress.ts";
import { formatTokens } from "../utils/token-amount.ts";
import {
  allFinished,
  blocksWords,
  bundlesSummary,
  type ProgressRow,
  progressSummary,
  salesTotal,
} from "../utils/tx-progress.ts";
import { TxProgressRow } from "./tx-progress-row.tsx";

export interface TxProgressDialogProps {
  title: string;
  /** The terminal window's name, e.g. "sell --progress". */
  windowTitle: string;
  /** The sell's or empty's transactions; null while its request is still on its way. */
  rows: readonly ProgressRow[] | null;
  /** Bundles a sell went out in (0: public, an empty, or not answered yet). */
  bundles: number;
  /** The token's ticker, for what the sales sold. */
  ticker?: string;
  explorerUrl: string | null;
  /** Closing stops the polling. */
  onClose: () => void;
  /** Every transaction finished (success, failed or error): balances are refetched. */
  onFinished: () => void;
}

/**
 * Once every transaction finished: the block(s) they landed in and, for a sell, what the sales
 * sold and fetched in all.
 */
function landedWords(rows: readonly ProgressRow[], ticker: string): string | null {
  const blocks = blocksWords(rows);
  if (!blocks) return null;
  const sold = salesTotal(rows);
  if (sold.tokens === 0n) return `Landed in ${blocks}.`;
  return `Landed in ${blocks}: sold ${formatTokens(sold.tokens)} ${ticker} for ${formatBnb(sold.bnb)} BNB.`;
}

function ProgressList({
  initial,
  bundles,
  ticker = "tokens",
  explorerUrl,
  onFinished,
}: Pick<TxProgressDialogProps, "bundles" | "explorerUrl" | "onFinished" | "ticker"> & {
  initial: readonly ProgressRow[];
}) {
  const rows = useTxProgress(initial, onFinished);
  const done = allFinished(rows);
  const split = bundlesSummary(bundles);
  const landed = done ? landedWords(rows, ticker) : null;
  return (
    <>
      {split && (
        <p className="text-xs text-fg" data-testid="tx-bundles">
          {split}
        </p>
      )}
      <p
        className="flex items-center gap-2 text-xs text-dim"
        role="status"
        data-testid="tx-summary"
      >
        {!done && <Spinner />}
        {rows.length === 0 ? "No transaction was needed." : progressSummary(rows)}
      </p>
      {landed && (
        <p className="text-xs text-fg" data-testid="tx-landed">
          {landed}
        </p>
      )}
      <ul className="flex max-h-96 flex-col gap-2 overflow-y-auto" aria-label="Transactions">
        {rows.map((row) => (
          <TxProgressRow key={row.id} row={row} explorerUrl={explorerUrl} />
        ))}
      </ul>
    </>
  );
}

/**
 * After a sell or an empty: each transaction's hash, amount and status, until all settle; then
 * the block(s) they landed in, what the sales fetched in all, and per sale its BNB against its
 * floor.
 */
export function TxProgressDialog({
  title,
  windowTitle,
  rows,
  bundles,
  ticker,
  explorerUrl,
  onClose,
  onFinished,
}: TxProgressDialogProps) {
  const titleId = useId();
  return (
    <Modal labelledBy={titleId} windowTitle={windowTitle} size="lg" data-testid="tx-progress">
      <div className="flex flex-col gap-4">
        <h2 id={titleId} className="text-lg font-semibold text-fg">
          {title}
        </h2>
        {rows === null ? (
          <p className="flex items-center gap-2 text-dim" role="status">
            <Spinner /> sending transactions...
          </p>
        ) : (
          <ProgressList
            initial={rows}
            bundles={bundles}
            {...(ticker ? { ticker } : {})}
            explorerUrl={explorerUrl}
            onFinished={onFinished}
          />
        )}
        <div className="flex justify-end">
          <Button variant="secondary" onClick={onClose}>
            [close]
          </Button>
        </div>
      </div>
    </Modal>
  );
}
