import type { PnlPoint, PnlTotals } from "@bundler/shared";
import { bnbNumber, weiOf } from "./pnl-money.ts";

/** A reading of the totals while the page is open (one a minute, and after each sell). */
export interface LivePnlPoint {
  /** When it was read, ms since the epoch. */
  at: number;
  costWei: string;
  proceedsWei: string;
  exitWei: string;
}

/** One point of the chart, BNB as numbers for the axis. */
export interface PnlChartPoint {
  at: number;
  /** The block of a ledger event; null for a reading while the page was open. */
  block: string | null;
  cost: number;
  proceeds: number;
  /** Null where the server recorded no exit value for the event. */
  exit: number | null;
}

/** At most this many readings are kept: a day with the page open. */
export const MAX_LIVE_POINTS = 1440;

/** The totals as a reading taken at `at`. */
export const liveReading = (totals: PnlTotals, at: number): LivePnlPoint => ({
  at,
  costWei: totals.costWei,
  proceedsWei: totals.proceedsWei,
  exitWei: totals.exitWei,
});

/** `readings` with `next` added, unless it is the same moment's; the oldest drop past the cap. */
export function addReading(readings: readonly LivePnlPoint[], next: LivePnlPoint): LivePnlPoint[] {
  if (readings.some((reading) => reading.at === next.at)) return [...readings];
  return [...readings, next].slice(-MAX_LIVE_POINTS);
}

/**
 * The chart's line: a point per ledger event (the history) and a point per reading while the
 * page is open, in time order (an event and a reading at the same moment: the event first).
 */
export function chartPoints(
  history: readonly PnlPoint[],
  readings: readonly LivePnlPoint[],
): PnlChartPoint[] {
  const events = history.map((point) => ({
    at: Date.parse(point.at),
    block: point.block,
    cost: bnbNumber(weiOf(point.costWei)),
    proceeds: bnbNumber(weiOf(point.proceedsWei)),
    exit: point.exitWei === null ? null : bnbNumber(weiOf(point.exitWei)),
  }));
  const live = readings.map((reading) => ({
    at: reading.at,
    block: null,
    cost: bnbNumber(weiOf(reading.costWei)),
    proceeds: bnbNumber(weiOf(reading.proceedsWei)),
    exit: bnbNumber(weiOf(reading.exitWei)),
  }));
  return [...events, ...live]
    .filter((point) => Number.isFinite(point.at))
    .sort((a, b) => a.at - b.at || (a.block === null ? 1 : 0) - (b.block === null ? 1 : 0));
}
