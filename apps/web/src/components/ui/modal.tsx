import type { ReactNode } from "react";

export interface ModalProps {
  /** id of the element that names the dialog. */
  labelledBy: string;
  /** Shown in the window's title bar, like a shell prompt. */
  windowTitle: string;
  children: ReactNode;
  /** lg gives room for wider content (a grid of cards, a log). */
  size?: "md" | "lg";
  "data-testid"?: string;
}

/** A blocking dialog styled as a terminal window. It has no close control of its own. */
export function Modal({
  labelledBy,
  windowTitle,
  children,
  size = "md",
  "data-testid": testId,
}: ModalProps) {
  return (
    <div className="fixed inset-0 z-40 overflow-y-auto bg-black/75 backdrop-blur-sm">
      {/* Centred when it fits; taller than the screen, it scrolls from its top. */}
      <div className="flex min-h-full items-center justify-center p-4">
        <div
          role="dialog"
          aria-modal="true"
          aria-labelledby={labelledBy}
          data-testid={testId}
          className={`w-full ${size === "lg" ? "max-w-2xl" : "max-w-lg"} overflow-hidden rounded-md border border-line-strong bg-panel shadow-2xl shadow-black/60`}
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
    </div>
  );
}
