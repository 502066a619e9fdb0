// `npm test`: everything — unit, web components (jsdom + msw), integration (real anvil,
// real database), browser tests (Debian's Chromium, installed here when missing) and the
// reduced reliability run (reliability/).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildWebIfStale } from "./build-web.mjs";

const root = path.resolve(import.meta.dirname, "..");
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

if (!existsSync(chromium)) {
  if (process.getuid?.() !== 0) {
    process.stderr.write(
      `Browser tests need Chromium at ${chromium}: run "sudo apt-get install -y chromium" once.\n`,
    );
    process.exit(1);
  }
  process.stdout.write("Installing Debian's chromium for the browser tests...\n");
  const apt = { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } };
  execFileSync("apt-get", ["update", "-qq"], apt);
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], apt);
}

buildWebIfStale();

// Browser tests start real servers and Chromium: on a 2-core machine they run after the
// rest, not beside it, so neither starves the other; the reduced reliability run comes last. Arguments go straight to vitest.
const vitest = (args, env = {}) =>
  spawnSync(process.execPath, [path.join(root, "node_modules/vitest/vitest.mjs"), "run", ...args], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...env },
  }).status ?? 1;

const args = process.argv.slice(2);
if (args.length > 0) process.exit(vitest(args));

const tally = path.join(mkdtempSync(path.join(tmpdir(), "bundler-test-")), "tally");
const first = vitest(["--project", "unit", "--project", "web", "--project", "integration"], {
  TEST_TALLY_FILE: tally,
});
const second = vitest(["--project", "e2e"], { TEST_TALLY_FILE: tally });
const third = vitest(["--project", "reliability"], { TEST_TALLY_FILE: tally });
const [passed, failed, skipped] = readFileSync(tally, "utf8")
  .trim()
  .split("\n")
  .map((line) => line.split(" ").map(Number))
  .reduce((sum, row) => sum.map((value, i) => value + (row[i] ?? 0)), [0, 0, 0]);
process.stdout.write(`\nall tests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(first || second || third);
