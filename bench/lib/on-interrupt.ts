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
