import { BundleTerminal } from "./bundle-terminal.tsx";
import { ExecuteConfirmDialog } from "./execute-confirm-dialog.tsx";
import type { LaunchExecutionState } from "./use-launch-execution.ts";

/**
 * The confirmation and the Bundle Terminal of `useLaunchExecution`. `onSucceeded` comes 10 s
 * after success; `onClosed` when the terminal closes ([dismiss], or by itself 30 s after a
 * failure).
 */
export function LaunchExecution({
  execution,
  authKey,
  explorerUrl,
  onSucceeded,
  onClosed,
}: {
  execution: LaunchExecutionState;
  authKey: string | null;
  explorerUrl: string | null;
  onSucceeded: () => void;
  /** After the terminal closed ([dismiss], or 30 s after a failure). */
  onClosed?: () => void;
}) {
  const { confirming, watching } = execution;
  const close = () => {
    execution.close();
    onClosed?.();
  };
  return (
    <>
      {confirming && (
        <ExecuteConfirmDialog
          draft={confirming}
          onConfirm={execution.launch}
          onCancel={execution.cancel}
        />
      )}
      {watching && (
        <BundleTerminal
          key={watching._id}
          draft={watching}
          authKey={authKey}
          explorerUrl={explorerUrl}
          onDismiss={close}
          onSucceeded={onSucceeded}
          onFailed={close}
        />
      )}
    </>
  );
}
