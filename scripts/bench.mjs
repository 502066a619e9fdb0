// `npm run bench`: runs every bench/*.bench.ts in alphabetical order, one at a time,
// each as `node --import tsx <file>`. Benchmarks print figures; one that finds a regression
// (chain-launch: inclusion below 20/20) exits non-zero after printing, and this run fails.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const benchDir = path.join(root, "bench");
const files = readdirSync(benchDir)
  .filter((name) => name.endsWith(".bench.ts"))
  .sort();

// Ctrl-C reaches the running benchmark directly (same process group); let it clean up.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => {});

const failed = [];
for (const name of files) {
  process.stdout.write(`\n=== ${name} ===\n`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join("bench", name)], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status === 130 || result.signal === "SIGINT") {
    process.stderr.write(`\n${name} was interrupted; skipping the rest\n`);
    process.exit(130);
  }
  if (result.status !== 0) failed.push(`${name} (${result.signal ?? `exit ${result.status}`})`);
}
if (files.length === 0) process.stdout.write("no bench/*.bench.ts files\n");
if (failed.length > 0) {
  process.stderr.write(`\nbenchmarks that failed: ${failed.join(", ")}\n`);
  process.exit(1);
}
