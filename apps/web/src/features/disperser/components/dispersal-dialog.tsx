import { type Dispersal, plural } from "@bundler/shared";
import { useId } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { Modal } from "../../../components/ui/modal.tsx";
import { Spinner } from "../../../components/ui/spinner.tsx";
import { type TerminalLine, TerminalLog } from "../../../components/ui/terminal-log.tsx";
import {
  chainProgress,
  DISPERSAL_MESSAGES,
  type DispersalView,
} from "../utils/dispersal-status.ts";
import { ChainsProgress } from "./chains-progress.tsx";
import { DispersalRefunds } from "./dispersal-refunds.tsx";
import { PartialResult } from "./partial-result.tsx";
import { PendingPayment } from "./pending-payment.tsx";

export interface DispersalDialogProps {
  /** null while the stored dispersal is being fetched. */
  dispersal: Dispersal | null;
  view: DispersalView | null;
  lines: readonly TerminalLine[];
  explorerUrl: string | null;
  cancelling: boolean;
  onFunded: () => void;
  onCancel: () => void;
  onClose: () => void;
}

/** "Dispersal": the payment to make, then the dispersal's progress until it settles. */
export function DispersalDialog({
  dispersal,
  view,
  lines,
  explorerUrl,
  cancelling,
  onFunded,
  onCancel,
  onClose,
}: DispersalDialogProps) {
  const titleId = useId();
  const wide = view === "chains" || (view === "partial" && dispersal?.antiBubblemaps === true);
  return (
    <Modal
      labelledBy={titleId}
      windowTitle={dispersal?.antiBubblemaps ? "disperse --anti-bubblemaps" : "disperse"}
      size={wide ? "lg" : "md"}
      data-testid="dispersal-dialog"
    >
      <div className="flex flex-col gap-5">
        <div className="flex flex-col gap-1">
          <h2 id={titleId} className="text-lg font-semibold text-fg">
            Dispersal
          </h2>
          <p className="text-xs text-dim">
            Since dispersals are connection-less, the amount is sent to a wallet that handles the
            dispersal
            {dispersal?.antiBubblemaps
              ? ": it pays every destination through 10 intermediate wallets of its own."
              : ": it pays every destination directly."}
          </p>
        </div>

        {!dispersal && (
          <p className="flex items-center gap-2 text-dim" data-testid="dispersal-loading">
            <Spinner /> loading dispersal...
          </p>
        )}

        {dispersal && view === "pending" && (
          <PendingPayment dispersal={dispersal} onFunded={onFunded} />
        )}

        {dispersal && view === "sending" && (
          <div className="flex flex-col gap-2" data-testid="dispersal-sending">
            <p role="status" className="flex items-center gap-2 text-fg">
              <Spinner /> {DISPERSAL_MESSAGES.sending}
            </p>
            <p className="text-xs text-faint">
              {chainProgress(dispersal.chains).completed}/
              {plural(dispersal.chains.length, "wallet")} paid
            </p>
            <DispersalRefunds refunds={dispersal.refunds} explorerUrl={explorerUrl} />
          </div>
        )}

        {dispersal && view === "chains" && (
          <ChainsProgress dispersal={dispersal} lines={lines} explorerUrl={explorerUrl} live />
        )}

        {dispersal && view === "partial" && (
          <>
            <PartialResult dispersal={dispersal} />
            {dispersal.antiBubblemaps ? (
              <ChainsProgress
                dispersal={dispersal}
                lines={lines}
                explorerUrl={explorerUrl}
                live={false}
              />
            ) : (
              <>
                <DispersalRefunds refunds={dispersal.refunds} explorerUrl={explorerUrl} />
                <TerminalLog
                  lines={lines}
                  explorerUrl={explorerUrl}
                  label="Transaction Log"
                  className="h-40"
                />
              </>
            )}
          </>
        )}

        <div className="flex flex-wrap justify-end gap-3">
          {view === "pending" && (
            <Button
              variant="secondary"
              busy={cancelling}
              busyLabel="cancelling..."
              onClick={onCancel}
            >
              [cancel dispersal]
            </Button>
          )}
          <Button variant="secondary" onClick={onClose}>
            [close]
          </Button>
        </div>
      </div>
    </Modal>
  );
}
