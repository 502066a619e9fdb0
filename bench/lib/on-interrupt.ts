/**
 * Runs `cleanup` once on Ctrl-C or SIGTERM, then exits 130, so an interrupted bench
 * leaves no server, chain or temp dir behind. Answers whether it was interrupted.
 */
export const onInterrupt = (cleanup: () => Promise<void>): (() => boolean) => {
  let interrupted = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      process.stderr.write(`\nbench: ${signal}, cleaning up...\n`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  return () => interrupted;
};

/**
 * Runs a bench's `main`, then `cleanup` once, whether it finished or threw (a throw prints its
 * stack and exits 1).
 */
export const runBench = (main: () => Promise<void>, cleanup: () => Promise<void>): void => {
  main().then(cleanup, async (error) => {
    process.stderr.write(`${(error as Error).stack ?? error}\n`);
    await cleanup();
    process.exit(1);
  });
};
