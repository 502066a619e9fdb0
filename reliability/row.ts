/**
 * One row of `npm run reliability`: something the app must survive, measured against its goal.
 * A row runs in full (the figures the README publishes) or reduced (the same checks, smaller,
 * inside `npm test`); it answers one or more figures, each measured beside its goal.
 */
export type Mode = "full" | "reduced";

export interface Figure {
  /** What was measured, e.g. "PGlite: p99 at polling rates". */
  figure: string;
  measured: string;
  goal: string;
  met: boolean;
}

export interface RowContext {
  mode: Mode;
  /** Postgres to measure on as well (a fresh database per use), when set. */
  databaseUrl: string | undefined;
  log(line: string): void;
}

export interface Row {
  name: string;
  /** One line: what it does. */
  what: string;
  run(context: RowContext): Promise<Figure[]>;
}

/** A figure that is a count which must be zero. */
export const zero = (figure: string, count: number): Figure => ({
  figure,
  measured: String(count),
  goal: "0",
  met: count === 0,
});

/** A figure that is a number which must stay below (or at) a bound. */
export const atMost = (figure: string, value: number, bound: number, unit = ""): Figure => ({
  figure,
  measured: `${Number.isInteger(value) ? value : value.toFixed(1)}${unit}`,
  goal: `≤ ${bound}${unit}`,
  met: value <= bound,
});

export const below = (figure: string, value: number, bound: number, unit = ""): Figure => ({
  figure,
  measured: `${Number.isInteger(value) ? value : value.toFixed(1)}${unit}`,
  goal: `< ${bound}${unit}`,
  met: value < bound,
});
