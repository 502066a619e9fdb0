import { Button } from "../../../components/ui/button.tsx";
import { STARTUP_RETRY_MS } from "../utils/stored-session.ts";
import { AuthModalTitle } from "./auth-modal-title.tsx";

export interface ServerUnreachableStepProps {
  title: string;
  hint: string;
  checking: boolean;
  onRetry: () => void;
}

/** The stored key could not be checked: the catalogue's reason, and a retry. The key is kept. */
export function ServerUnreachableStep({
  title,
  hint,
  checking,
  onRetry,
}: ServerUnreachableStepProps) {
  return (
    <div className="flex flex-col gap-5" data-testid="auth-unreachable">
      <div className="flex flex-col gap-2">
        <AuthModalTitle>{title}</AuthModalTitle>
        <p className="text-dim">{hint}</p>
        <p className="text-xs text-faint">
          Your access key is kept. Checking again every {STARTUP_RETRY_MS / 1000} seconds...
        </p>
      </div>
      <Button
        variant="bracket"
        busy={checking}
        busyLabel="[checking...]"
        onClick={onRetry}
        className="self-center"
      >
        [retry]
      </Button>
    </div>
  );
}
