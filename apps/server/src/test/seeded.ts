/**
 * A small seeded generator (mulberry32): draws in [0, 1), the same sequence for the same seed,
 * so a run's random choices are replayed from the seed it printed.
 */
export const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** The seed an environment variable names, or a new one (printed by the caller to replay). */
export const seedFrom = (value: string | undefined): number =>
  value !== undefined && value !== "" ? Number(value) : Date.now() % 1_000_000;
