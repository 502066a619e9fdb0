import type { PnlPoint } from "@bundler/shared";
import { describe, expect, it } from "vitest";
import { addReading, chartPoints, type LivePnlPoint, MAX_LIVE_POINTS } from "./pnl-points.ts";

const BNB = 10n ** 18n;
const wei = (bnb: number) => String((BigInt(Math.round(bnb * 1000)) * BNB) / 1000n);

const event = (
  block: number,
  at: string,
  cost: number,
  proceeds: number,
  exit: number | null,
): PnlPoint => ({
  block: String(block),
  at,
  costWei: wei(cost),
  proceedsWei: wei(proceeds),
  exitWei: exit === null ? null : wei(exit),
});

const reading = (at: number, cost: number, proceeds: number, exit: number): LivePnlPoint => ({
  at,
  costWei: wei(cost),
  proceedsWei: wei(proceeds),
  exitWei: wei(exit),
});

describe("the P&L chart's points", () => {
  it("puts the events and the readings taken while the page was open in time order", () => {
    const launch = Date.parse("2026-01-01T00:00:00Z");
    const points = chartPoints(
      [
        event(10, "2026-01-01T00:00:00Z", 0.5, 0, null),
        event(20, "2026-01-01T00:02:00Z", 0.5, 0.2, 0.25),
      ],
      [reading(launch + 60_000, 0.5, 0, 0.45), reading(launch + 180_000, 0.5, 0.2, 0.24)],
    );
    expect(points).toEqual([
      { at: launch, block: "10", cost: 0.5, proceeds: 0, exit: null },
      { at: launch + 60_000, block: null, cost: 0.5, proceeds: 0, exit: 0.45 },
      { at: launch + 120_000, block: "20", cost: 0.5, proceeds: 0.2, exit: 0.25 },
      { at: launch + 180_000, block: null, cost: 0.5, proceeds: 0.2, exit: 0.24 },
    ]);
  });

  it("keeps one reading per moment and at most a day of them", () => {
    const once = addReading([], reading(1, 1, 0, 1));
    expect(addReading(once, reading(1, 2, 0, 2))).toHaveLength(1);
    let readings: LivePnlPoint[] = [];
    for (let minute = 0; minute < MAX_LIVE_POINTS + 5; minute++)
      readings = addReading(readings, reading(minute * 60_000, 1, 0, 1));
    expect(readings).toHaveLength(MAX_LIVE_POINTS);
    expect(readings[0]?.at).toBe(5 * 60_000);
  });
});
