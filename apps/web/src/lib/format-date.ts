const DATE_TIME = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
});

/**
 * SPEC §2's date: month short, day, year, time, in the viewer's time zone; "—" for a value
 * that is not a date.
 *
 * @example
 * formatDateTime("2026-11-24T15:04:00") // "Nov 24, 2026, 3:04 PM"
 */
export function formatDateTime(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? "—" : DATE_TIME.format(date);
}
