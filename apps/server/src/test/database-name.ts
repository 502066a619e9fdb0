/** A test database older than this belongs to a run that crashed: no test file runs so long. */
export const STALE_TEST_DATABASE_MS = 2 * 60 * 60 * 1000;

const NAME = /^lb_test_(\d{10})_[0-9a-f]{8}$/;

/** `lb_test_<creation time, unix seconds>_<random hex>`: its age is in its name. */
export const newTestDatabaseName = (now: number, randomHex: string): string =>
  `lb_test_${Math.floor(now / 1000)}_${randomHex}`;

/** Only names this module made, and only once they are older than two hours. */
export const isStaleTestDatabase = (name: string, now: number): boolean => {
  const created = NAME.exec(name)?.[1];
  return created !== undefined && now - Number(created) * 1000 > STALE_TEST_DATABASE_MS;
};
