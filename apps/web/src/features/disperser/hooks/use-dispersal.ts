import {
  type CreateDispersalBody,
  type Dispersal,
  dispersalStatusEvent,
  isFinalDispersalStatus,
} from "@bundler/shared";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import toast from "react-hot-toast";
import { failureText } from "../../../lib/api-error.ts";
import { useSocketEvent } from "../../../lib/socket.ts";
import { cancelDispersal } from "../api/cancel-dispersal.ts";
import { createDispersal } from "../api/create-dispersal.ts";
import { isNotFound } from "../api/dispersal-error.ts";
import { getDispersalLog } from "../api/get-dispersal-log.ts";
import { getDispersalStatusQueryOptions, useDispersalStatus } from "../api/get-dispersal-status.ts";
import { dispersalsListKey } from "../api/get-dispersals.ts";
import {
  DISPERSAL_ID_KEY,
  DISPERSAL_MESSAGES,
  dispersalOutcome,
  isMoving,
  readStoredDispersalId,
} from "../utils/dispersal-status.ts";
import { useDispersalLog } from "./use-dispersal-log.ts";

/** A live line means something moved: the status is read again this long after it. */
const LINE_REFRESH_MS = 1000;

/** The active dispersal's id in local storage; blocked storage only loses it on reload. */
const storedId = {
  read(): string | null {
    try {
      return readStoredDispersalId(localStorage.getItem(DISPERSAL_ID_KEY));
    } catch {
      return null;
    }
  },
  write(id: string): void {
    try {
      localStorage.setItem(DISPERSAL_ID_KEY, id);
    } catch {
      // Kept for this visit only.
    }
  },
  clear(): void {
    try {
      localStorage.removeItem(DISPERSAL_ID_KEY);
    } catch {
      // Nothing stored to clear.
    }
  },
};

/**
 * The page's one dispersal: the stored id is fetched on load (the dialog opens, and the log's
 * earlier lines are read back) and polled every 10 s; creating stores the new receiver as the
 * id; the status decides what stays. Live lines from `dispersal_status_{key}` feed the
 * transaction log. `onDelivered` runs once when a dispersal completes or partly completes, with
 * the dispersal, so the page can take the paid wallets off its grid.
 */
export function useDispersal(
  authKey: string | null,
  { onDelivered }: { onDelivered?: (dispersal: Dispersal) => void } = {},
) {
  const queryClient = useQueryClient();
  const [initialId] = useState(storedId.read);
  const [activeId, setActiveId] = useState<string | null>(initialId);
  const [open, setOpen] = useState(initialId !== null);
  const [creating, setCreating] = useState(false);
  const creatingRef = useRef(false);
  const [cancelling, setCancelling] = useState(false);
  const announced = useRef(new Set<string>());
  const terminal = useDispersalLog();

  const status = useDispersalStatus(activeId);
  const dispersal = activeId ? (status.data ?? null) : null;
  const view = dispersal ? dispersalOutcome(dispersal.status, dispersal.antiBubblemaps).view : null;

  /** Clears the id, the state and the dialog. */
  const forget = useCallback(
    (id: string) => {
      storedId.clear();
      setActiveId((current) => (current === id ? null : current));
      setOpen(false);
      queryClient.removeQueries({ queryKey: getDispersalStatusQueryOptions(id).queryKey });
    },
    [queryClient],
  );

  // A page reloaded mid-dispersal shows the log's lines from before the reload.
  const { restore } = terminal;
  useEffect(() => {
    if (!initialId) return;
    const controller = new AbortController();
    getDispersalLog(initialId, controller.signal).then(
      (earlier) => {
        if (!controller.signal.aborted) restore(earlier);
      },
      () => {
        // Without the record, the log shows the live lines only.
      },
    );
    return () => controller.abort();
  }, [initialId, restore]);

  const delivered = useRef(new Set<string>());
  const onStatus = useEffectEvent(() => {
    if (!dispersal) return;
    const { dispersalId: id, status: current, antiBubblemaps } = dispersal;
    const outcome = dispersalOutcome(current, antiBubblemaps);
    void queryClient.invalidateQueries({ queryKey: dispersalsListKey });
    if ((current === "completed" || current === "partial") && !delivered.current.has(id)) {
      delivered.current.add(id);
      onDelivered?.(dispersal);
    }
    if (isMoving(current) && !announced.current.has(id)) {
      announced.current.add(id);
      toast.success(DISPERSAL_MESSAGES.sending, { id: `dispersal-sending:${id}` });
    }
    if (outcome.notice) {
      const show = outcome.notice.tone === "success" ? toast.success : toast.error;
      show(outcome.notice.message, { id: `dispersal-${current}:${id}` });
    }
    if (!outcome.keepStoredId) storedId.clear();
    if (outcome.view === null) forget(id);
    // A result worth reading (partial) is shown even if the dialog was closed.
    else if (isFinalDispersalStatus(current)) setOpen(true);
  });
  const statusKey = dispersal ? `${dispersal.dispersalId}:${dispersal.status}` : null;
  useEffect(() => {
    if (statusKey) onStatus();
  }, [statusKey]);

  const onError = useEffectEvent(() => {
    if (!activeId || !status.error) return;
    toast.error(failureText(status.error, "Failed to fetch the dispersal"), {
      id: "dispersal-status-error",
    });
    if (isNotFound(status.error)) forget(activeId);
  });
  const failedAt = status.isError ? status.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) onError();
  }, [failedAt]);

  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (refreshTimer.current) clearTimeout(refreshTimer.current);
    },
    [],
  );
  const refreshSoon = useCallback(() => {
    if (refreshTimer.current) return;
    refreshTimer.current = setTimeout(() => {
      refreshTimer.current = null;
      void queryClient.invalidateQueries({ queryKey: ["dispersal", "status"] });
    }, LINE_REFRESH_MS);
  }, [queryClient]);

  useSocketEvent(authKey && activeId ? dispersalStatusEvent(authKey) : null, (payload) => {
    if (typeof payload?.message !== "string") return;
    terminal.append(payload.message);
    refreshSoon();
  });

  /** Creates the dispersal; answers why it failed (null when it did not, or was ignored). */
  const create = useCallback(
    async (body: CreateDispersalBody): Promise<unknown> => {
      // A second click while the first is on its way is ignored.
      if (creatingRef.current) return null;
      creatingRef.current = true;
      setCreating(true);
      try {
        const created = await createDispersal(body);
        queryClient.setQueryData(
          getDispersalStatusQueryOptions(created.dispersalId).queryKey,
          created,
        );
        storedId.write(created.dispersalId);
        void queryClient.invalidateQueries({ queryKey: dispersalsListKey });
        terminal.clear();
        setActiveId(created.dispersalId);
        setOpen(true);
        return null;
      } catch (error) {
        toast.error(failureText(error, "Failed to create the dispersal"));
        return error;
      } finally {
        creatingRef.current = false;
        setCreating(false);
      }
    },
    [queryClient, terminal.clear],
  );

  const cancel = useCallback(async () => {
    if (!activeId) return;
    setCancelling(true);
    try {
      const answer = await cancelDispersal(activeId);
      toast.success(answer.message);
      forget(activeId);
      void queryClient.invalidateQueries({ queryKey: dispersalsListKey });
    } catch (error) {
      toast.error(failureText(error, "Failed to cancel the dispersal"));
      if (isNotFound(error)) forget(activeId);
    } finally {
      setCancelling(false);
    }
  }, [activeId, forget, queryClient]);

  /** Hides the dialog; a finished (partial) dispersal is let go with it. */
  const close = useCallback(() => {
    if (dispersal && isFinalDispersalStatus(dispersal.status)) forget(dispersal.dispersalId);
    else setOpen(false);
  }, [dispersal, forget]);

  return {
    /** A dispersal is active (stored or just created), loaded or not. */
    exists: activeId !== null,
    dispersal,
    view,
    loading: activeId !== null && !dispersal,
    lines: terminal.lines,
    open: open && activeId !== null,
    show: () => setOpen(true),
    close,
    create,
    creating,
    cancel,
    cancelling,
    refresh: refreshSoon,
  };
}
