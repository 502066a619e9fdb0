import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import toast from "react-hot-toast";
import { failureText } from "../../lib/api-error.ts";
import { useLiveDraftStatus } from "./get-draft.ts";
import type { LaunchTarget } from "./launch-target.ts";

/** While the terminal is open its draft's status is polled, backing up the log. */
export const TERMINAL_POLL_MS = 5000;
export const EXECUTE_FAILED = "Failed to execute launch";

/**
 * "Execute Launch" as the drafts page and the launch page both run it: `ask` opens the spec's
 * confirmation, `launch` (its confirm) opens the Bundle Terminal and then calls `execute`; a
 * refused call toasts the server's words (else SPEC §8's "Failed to execute launch") and closes
 * the terminal. `watch` opens the terminal on a launch already running. Render the dialogs with
 * `<LaunchExecution>`.
 */
export function useLaunchExecution({
  execute,
  onSettled,
}: {
  /** Starts the launch job of a paid draft; progress arrives on the socket. */
  execute: (draftId: string) => Promise<unknown>;
  /** After the call answered, either way (refresh what lists the draft). */
  onSettled?: () => void;
}) {
  const [confirming, setConfirming] = useState<LaunchTarget | null>(null);
  const [watching, setWatching] = useState<LaunchTarget | null>(null);
  // The launching draft moves to the top of the drafts list: the terminal follows it by id.
  const liveStatus = useLiveDraftStatus(watching?._id ?? null, TERMINAL_POLL_MS).data;
  const mutation = useMutation({ mutationFn: execute, onSettled });

  const launch = () => {
    if (!confirming) return;
    const draft = confirming;
    setConfirming(null);
    // Open first, so no line the job sends before the answer arrives is missed.
    setWatching(draft);
    mutation.mutate(draft._id, {
      onError: (error) => {
        toast.error(failureText(error, EXECUTE_FAILED));
        setWatching(null);
      },
    });
  };

  return {
    /** The draft whose launch is being confirmed. */
    confirming,
    ask: setConfirming,
    cancel: () => setConfirming(null),
    launch,
    /** The draft in the terminal, as its polling last saw it. */
    watching: watching && (liveStatus ? { ...watching, status: liveStatus } : watching),
    watch: setWatching,
    close: () => setWatching(null),
  };
}

export type LaunchExecutionState = ReturnType<typeof useLaunchExecution>;
