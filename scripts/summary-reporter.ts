import { appendFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

/** Prints the plain closing line CI reads: "N passed, N failed, N skipped". */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of modules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      if (mod.state() === "failed" && [...mod.children.allTests()].length === 0) failed++;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
    // scripts/test.mjs runs the suite in two passes and prints their sum last.
    const tally = process.env.TEST_TALLY_FILE;
    if (tally) appendFileSync(tally, `${passed} ${failed} ${skipped}\n`);
  }
}
