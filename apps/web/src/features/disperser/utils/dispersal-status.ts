import {
  ADDRESS_PATTERN,
  ANTI_BUBBLEMAPS_HOPS,
  type DispersalChain,
  type DispersalStatus,
} from "@bundler/shared";

/** localStorage key of the active dispersal's id (its receiver address). */
export const DISPERSAL_ID_KEY = "dispersal-id";
/** How often an open dispersal's status is polled. */
export const DISPERSAL_POLL_MS = 10_000;

export const DISPERSAL_MESSAGES = {
  sending: "Dispersal is being sent, please wait...",
  completed: "Dispersal completed!",
  failed: "Dispersal failed, please create a new one.",
  expired: "Dispersal expired, please create a new one.",
} as const;

/** A stored id is only trusted when it looks like one (an address). */
export const readStoredDispersalId = (raw: string | null): string | null =>
  raw !== null && ADDRESS_PATTERN.test(raw.trim()) ? raw.trim() : null;

/** What the dialog shows for a dispersal. */
export type DispersalView = "pending" | "sending" | "chains" | "partial";

export interface DispersalOutcome {
  /** null: nothing to show, the dispersal is gone from the page. */
  view: DispersalView | null;
  /** The id stays in local storage (the dispersal is still moving). */
  keepStoredId: boolean;
  /** The toast this status brings, once. */
  notice: { tone: "success" | "error"; message: string } | null;
}

/**
 * How each status is handled: moving ones stay stored and polled; completed, failed, expired
 * and cancelled clear everything; partial clears the stored id but stays on screen until
 * the user closes it, so its refunds can be read.
 */
export function dispersalOutcome(
  status: DispersalStatus,
  antiBubblemaps: boolean,
): DispersalOutcome {
  switch (status) {
    case "pending":
      return { view: "pending", keepStoredId: true, notice: null };
    case "sending":
    case "processing":
      return { view: antiBubblemaps ? "chains" : "sending", keepStoredId: true, notice: null };
    case "partial":
      return { view: "partial", keepStoredId: false, notice: null };
    case "completed":
      return {
        view: null,
        keepStoredId: false,
        notice: { tone: "success", message: DISPERSAL_MESSAGES.completed },
      };
    case "failed":
      return {
        view: null,
        keepStoredId: false,
        notice: { tone: "error", message: DISPERSAL_MESSAGES.failed },
      };
    case "expired":
      return {
        view: null,
        keepStoredId: false,
        notice: { tone: "error", message: DISPERSAL_MESSAGES.expired },
      };
    case "cancelled":
      return { view: null, keepStoredId: false, notice: null };
  }
}

/** The funded states: the "being sent" toast is shown the first time one is seen. */
export const isMoving = (status: DispersalStatus): boolean =>
  status === "sending" || status === "processing";

export interface ChainProgress {
  total: number;
  completed: number;
  failed: number;
  /** Completed share, 0..100. */
  percent: number;
}

export function chainProgress(chains: readonly DispersalChain[]): ChainProgress {
  const completed = chains.filter((chain) => chain.completed).length;
  const failed = chains.filter((chain) => chain.failed && !chain.completed).length;
  const total = chains.length;
  return { total, completed, failed, percent: total === 0 ? 0 : (completed / total) * 100 };
}

export type ChainState = "Completed" | "Failed" | "Processing";

export const chainState = (chain: DispersalChain): ChainState =>
  chain.completed ? "Completed" : chain.failed ? "Failed" : "Processing";

/** The hop bar's fill, 0..100 (a completed chain is full). */
export function hopPercent(chain: DispersalChain): number {
  if (chain.completed) return 100;
  return (
    (Math.min(Math.max(chain.currentHop, 0), ANTI_BUBBLEMAPS_HOPS) / ANTI_BUBBLEMAPS_HOPS) * 100
  );
}

/** Whole minutes left to fund, from the server's expiresAt (its expiresIn when unreadable). */
export function minutesLeft(expiresAt: string, expiresIn: number, now: number): number {
  const deadline = Date.parse(expiresAt);
  if (Number.isNaN(deadline)) return Math.max(0, expiresIn);
  return Math.max(0, Math.ceil((deadline - now) / 60_000));
}

/** 0x1234…abcd */
