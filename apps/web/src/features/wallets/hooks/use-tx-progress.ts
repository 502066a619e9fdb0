import { useEffect, useEffectEvent, useState } from "react";
import { getTxStatuses, SELL_STATUS_POLL_MS } from "../api/get-tx-statuses.ts";
import { applyStatuses, type ProgressRow, pendingHashes } from "../utils/tx-progress.ts";

/**
 * A sell's or an empty's transactions as they settle: every 3 s the pending ones (and only those) are asked
 * about, until none is left; then `onFinished` runs once. Unmounting (the dialog closing) stops
 * the polling.
 */
export function useTxProgress(
  initial: readonly ProgressRow[],
  onFinished: () => void,
): readonly ProgressRow[] {
  const [rows, setRows] = useState<readonly ProgressRow[]>(initial);
  const [round, setRound] = useState(0);
  const pendingKey = pendingHashes(rows).join(",");
  const finished = useEffectEvent(onFinished);

  useEffect(() => {
    // `round` makes a poll that changed nothing schedule the next one.
    void round;
    if (!pendingKey) {
      finished();
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const statuses = await getTxStatuses(pendingKey.split(","), controller.signal);
        if (!controller.signal.aborted) setRows((current) => applyStatuses(current, statuses));
      } catch {
        // A failed poll is tried again on the next round.
      }
      if (!controller.signal.aborted) setRound((n) => n + 1);
    }, SELL_STATUS_POLL_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [pendingKey, round]);

  return rows;
}
