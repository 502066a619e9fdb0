import type { ReactNode } from "react";
import { Button } from "./button.tsx";

/** A page's data could not be loaded: why, [retry] when a retry may help, and any way out. */
export function LoadProblem({
  message,
  onRetry,
  children,
}: {
  message: string;
  onRetry?: (() => void) | undefined;
  /** Links shown after [retry], e.g. [back]. */
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-start gap-3" role="alert">
      <p className="whitespace-pre-line text-bad">{message}</p>
      <div className="flex gap-4">
        {onRetry && (
          <Button variant="bracket" onClick={onRetry}>
            [retry]
          </Button>
        )}
        {children}
      </div>
    </div>
  );
}
