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
  /** Each failed test's name and the first line of its error, so the run's end can say which. */
  failures: string[];
}

const firstLine = (message: string | undefined): string =>
  (message ?? "no error message").split("\n")[0]?.slice(0, 300) ?? "";

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
        failures: [],
      };
      for (const test of mod.children.allTests()) {
        const result = test.result();
        if (result.state === "passed") tally.passed++;
        else if (result.state === "failed") {
          tally.failed++;
          tally.failures.push(`${test.fullName}: ${firstLine(result.errors?.[0]?.message)}`);
        } else tally.skipped++;
      }
      if (mod.state() === "failed" && [...mod.children.allTests()].length === 0) {
        tally.failed++;
        tally.failures.push(`(the file did not run): ${firstLine(mod.errors()[0]?.message)}`);
      }
      return tally;
    });
    const sum = (key: "passed" | "failed" | "skipped") =>
      files.reduce((total, file) => total + file[key], 0);
    const failures = files.flatMap((file) =>
      file.failures.map((name) => `  ${file.file} > ${name}\n`),
    );
    if (failures.length > 0) process.stdout.write(`\nfailed:\n${failures.join("")}`);
    process.stdout.write(
      `\n${sum("passed")} passed, ${sum("failed")} failed, ${sum("skipped")} skipped\n`,
    );
    const tally = process.env.TEST_TALLY_FILE;
    if (tally) appendFileSync(tally, files.map((file) => `${JSON.stringify(file)}\n`).join(""));
  }
}
