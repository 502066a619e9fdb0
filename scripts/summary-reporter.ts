import { appendFileSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

/** One test file as scripts/test.mjs sums it up: its project, its time and its counts. */
export interface FileTally {
  project: string;
  file: string;
  /** Setup, import and tests, milliseconds. */
  ms: number;
  passed: number;
  failed: number;
  skipped: number;
}

const timeOf = (mod: TestModule): number => {
  const d = mod.diagnostic();
  return (
    d.environmentSetupDuration +
    d.prepareDuration +
    d.collectDuration +
    d.setupDuration +
    d.duration
  );
};

/**
 * Prints the plain closing line CI reads: "N passed, N failed, N skipped"; and, when
 * TEST_TALLY_FILE names a file (scripts/test.mjs), appends a line per test file to it, so
 * the whole run's projects and slowest files are printed at its end.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const files: FileTally[] = modules.map((mod) => {
      const tally: FileTally = {
        project: mod.project.name,
        file: mod.relativeModuleId,
        ms: Math.round(timeOf(mod)),
        passed: 0,
        failed: 0,
        skipped: 0,
      };
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") tally.passed++;
        else if (state === "failed") tally.failed++;
        else tally.skipped++;
      }
      if (mod.state() === "failed" && [...mod.children.allTests()].length === 0) tally.failed++;
      return tally;
    });
    const sum = (key: "passed" | "failed" | "skipped") =>
      files.reduce((total, file) => total + file[key], 0);
    process.stdout.write(
      `\n${sum("passed")} passed, ${sum("failed")} failed, ${sum("skipped")} skipped\n`,
    );
    const tally = process.env.TEST_TALLY_FILE;
    if (tally) appendFileSync(tally, files.map((file) => `${JSON.stringify(file)}\n`).join(""));
  }
}
