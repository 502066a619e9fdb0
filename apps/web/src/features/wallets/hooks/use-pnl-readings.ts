import type { PnlTotals } from "@bundler/shared";
import { useEffect, useState } from "react";
import { addReading, type LivePnlPoint, liveReading } from "../utils/pnl-points.ts";

/**
 * The totals as read while the page is open: one reading each time the P&L answers (every
 * minute, and after each sell), for the chart's points between ledger events.
 */
export function usePnlReadings(totals: PnlTotals | undefined, readAt: number): LivePnlPoint[] {
  const [readings, setReadings] = useState<LivePnlPoint[]>([]);
  useEffect(() => {
    if (totals && readAt > 0)
      setReadings((current) => addReading(current, liveReading(totals, readAt)));
  }, [totals, readAt]);
  return readings;
}
