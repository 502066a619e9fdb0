import { type ReactNode, useId } from "react";
import { Button } from "./button.tsx";
import { Modal } from "./modal.tsx";

export interface ConfirmDialogProps {
  /** The question, e.g. "Are you sure you want to delete this draft?". */
  message: string;
  /** Shown under the message, e.g. what confirming will cost. */
  children?: ReactNode;
  title?: string;
  confirmLabel?: string;
  busy?: boolean;
  /** Confirming is not possible yet (say why in `children`); cancel still is. */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** An in-app replacement for window.confirm: [confirm] / [cancel]. */
export function ConfirmDialog({
  message,
  children,
  title = "Please confirm",
  confirmLabel = "[confirm]",
  busy = false,
  confirmDisabled = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const titleId = useId();
  return (
    <Modal labelledBy={titleId} windowTitle="confirm" data-testid="confirm-dialog">
      <div className="flex flex-col gap-5">
        <h2 id={titleId} className="font-semibold text-fg">
          {title}
        </h2>
        <p className="text-dim">{message}</p>
        {children}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            [cancel]
          </Button>
          <Button
            ref={(button) => button?.focus()}
            onClick={onConfirm}
            busy={busy}
            disabled={confirmDisabled}
          >
            {confirmLabel}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
