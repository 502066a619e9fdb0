import { BUMPER_MAX_DURATION_MINUTES } from "@bundler/shared";

export const TIME_UNITS = ["seconds", "minutes", "hours"] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

const MINUTES_PER: Record<TimeUnit, number> = { seconds: 1 / 60, minutes: 1, hours: 60 };

/** A typed value in `unit` as minutes, what the server takes; blank or junk is NaN. */
export function toMinutes(value: string, unit: TimeUnit): number {
  const text = value.trim();
  if (text === "") return Number.NaN;
  return Number(text) * MINUTES_PER[unit];
}

/** The most a duration can be in `unit`: one day (1440 min, 24 h, 86400 s). */
export const maxDurationIn = (unit: TimeUnit): number =>
  BUMPER_MAX_DURATION_MINUTES / MINUTES_PER[unit];

/**
 * The duration's text after its unit changes: the number is kept, and clamped to one day when
 * it would now exceed it (30 minutes switched to hours is 30 h, so it becomes 24).
 */
export function clampDuration(value: string, unit: TimeUnit): string {
  const minutes = toMinutes(value, unit);
  return minutes > BUMPER_MAX_DURATION_MINUTES ? String(maxDurationIn(unit)) : value;
}
