import { launchStatusEvent } from "@bundler/shared";
import { useEffect, useEffectEvent, useId, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useTerminalLines } from "../../hooks/use-terminal-lines.ts";
import { useSocketEvent } from "../../lib/socket.ts";
import { Button } from "../ui/button.tsx";
import { Modal } from "../ui/modal.tsx";
import { Spinner } from "../ui/spinner.tsx";
import { TerminalLog } from "../ui/terminal-log.tsx";
import { type LaunchOutcome, outcomeOfLine, outcomeOfStatus } from "./launch-outcome.ts";
import type { LaunchTarget } from "./launch-target.ts";

/** After success the page refreshes (the drafts list) this long later (SPEC §9). */
export const SUCCESS_REFRESH_MS = 10_000;
/** After failure the terminal closes this long later (SPEC §9). */
export const FAILURE_CLOSE_MS = 30_000;

export interface BundleTerminalProps {
  /** The draft as its polling currently sees it. */
  draft: LaunchTarget;
  authKey: string | null;
  explorerUrl: string | null;
  onDismiss: () => void;
  /** 10 s after success: refresh the page (the drafts list). */
  onSucceeded: () => void;
  /** 30 s after failure: close the terminal. */
  onFailed: () => void;
}

/** "Bundle Terminal": the launch job's live log from `launch_status_{authKey}`. */
export function BundleTerminal({
  draft,
  authKey,
  explorerUrl,
  onDismiss,
  onSucceeded,
  onFailed,
}: BundleTerminalProps) {
  const titleId = useId();
  const { lines, append } = useTerminalLines();
  const [outcome, setOutcome] = useState<LaunchOutcome | null>(null);
  const seenExecuting = useRef(false);
  const settle = (result: LaunchOutcome | null) => {
    if (result) setOutcome((current) => current ?? result);
  };

  useSocketEvent(authKey ? launchStatusEvent(authKey) : null, (payload) => {
    append(payload.message);
    settle(outcomeOfLine(payload.message));
  });

  // The draft's own status is the backstop for a missed verdict line.
  const { status } = draft;
  useEffect(() => {
    if (status === "executing") seenExecuting.current = true;
    const result = outcomeOfStatus(status, seenExecuting.current);
    if (result) setOutcome((current) => current ?? result);
  }, [status]);

  const succeeded = useEffectEvent(onSucceeded);
  const failed = useEffectEvent(onFailed);
  useEffect(() => {
    if (outcome === "success") {
      const timer = setTimeout(succeeded, SUCCESS_REFRESH_MS);
      return () => clearTimeout(timer);
    }
    if (outcome === "failure") {
      toast.error("Launch failed - check terminal for details", { id: "launch-failed" });
      const timer = setTimeout(failed, FAILURE_CLOSE_MS);
      return () => clearTimeout(timer);
    }
  }, [outcome]);

  return (
    <Modal labelledBy={titleId} windowTitle="bundle --execute" data-testid="bundle-terminal">
      <div className="flex flex-col gap-4">
        <div className="flex items-baseline justify-between gap-3">
          <h2 id={titleId} className="text-lg font-semibold text-fg">
            Bundle Terminal
          </h2>
          <span className="truncate text-xs text-dim">
            {draft.tokenInfo.name} ({draft.tokenInfo.symbol})
          </span>
        </div>

        <TerminalLog
          lines={lines}
          explorerUrl={explorerUrl}
          label="Launch log"
          notice={
            authKey ? undefined : (
              <li className="text-bad">No stored access key: live updates are unavailable.</li>
            )
          }
        />

        <div className="flex items-center justify-between gap-3">
          <span role="status" data-testid="terminal-outcome" className="text-xs">
            {outcome === null && (
              <span className="flex items-center gap-2 text-dim">
                <Spinner /> launching...
              </span>
            )}
            {outcome === "success" && <span className="text-ok">Launch complete</span>}
            {outcome === "failure" && (
              <span className="text-bad">
                Launch failed; your payment stays valid, fix the draft and retry.
              </span>
            )}
          </span>
          <Button variant="secondary" onClick={onDismiss}>
            [dismiss]
          </Button>
        </div>
      </div>
    </Modal>
  );
}
