import type { ReactNode } from "react";

export interface ModalProps {
  /** id of the element that names the dialog. */
  labelledBy: string;
  /** Shown in the window's title bar, like a shell prompt. */
  windowTitle: string;
  children: ReactNode;
  "data-testid"?: string;
}

/** A blocking dialog styled as a terminal window. It has no close control of its own. */
export function Modal({ labelledBy, windowTitle, children, "data-testid": testId }: ModalProps) {
  return (
    <div className="fixed inset-0 z-40 flex items-center justify-center bg-black/75 p-4 backdrop-blur-sm">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        data-testid={testId}
        className="w-full max-w-lg overflow-hidden rounded-md border border-line-strong bg-panel shadow-2xl shadow-black/60"
      >
        <div className="flex items-center gap-2 border-b border-line bg-raised px-3 py-2">
          <span className="size-2.5 rounded-full bg-bad/80" aria-hidden="true" />
          <span className="size-2.5 rounded-full bg-accent/80" aria-hidden="true" />
          <span className="size-2.5 rounded-full bg-ok/80" aria-hidden="true" />
          <span className="ml-2 truncate text-xs text-faint">{windowTitle}</span>
        </div>
        <div className="p-6">{children}</div>
      </div>
    </div>
  );
}
