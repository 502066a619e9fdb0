// `npm test`: everything — unit, web components (jsdom + msw), integration (real anvil,
// real database), browser tests (Debian's Chromium headless shell, installed here when missing)
// and the reduced reliability run (reliability/).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { HEADLESS_SHELL } from "../e2e/support/chromium-path.mjs";
import { buildWebIfStale } from "./build-web.mjs";

const root = path.resolve(import.meta.dirname, "..");
// The browser tests drive Chromium's headless shell (e2e/support/browser.ts says why).
const chromium = process.env.CHROMIUM_PATH ?? HEADLESS_SHELL;

if (!existsSync(chromium)) {
  if (process.getuid?.() !== 0) {
    process.stderr.write(
      `Browser tests need Chromium at ${chromium}: run "sudo apt-get install -y chromium-headless-shell" once.\n`,
    );
    process.exit(1);
  }
  process.stdout.write("Installing Debian's chromium-headless-shell for the browser tests...\n");
  const apt = { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } };
  execFileSync("apt-get", ["update", "-qq"], apt);
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium-headless-shell"], apt);
}

buildWebIfStale();

// Browser tests start real servers and Chromium: on a 2-core machine they run after the
// rest, not beside it, so neither starves the other; the reduced reliability run comes last.
// Arguments go straight to vitest, as one pass.
const vitest = (args, env = {}) =>
  spawnSync(process.execPath, [path.join(root, "node_modules/vitest/vitest.mjs"), "run", ...args], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...env },
  }).status ?? 1;

const tally = path.join(mkdtempSync(path.join(tmpdir(), "bundler-test-")), "tally");
const passes = [];
/** One vitest run, timed, its files added to the tally. */
const pass = (name, args) => {
  const started = performance.now();
  const status = vitest(args, { TEST_TALLY_FILE: tally });
  passes.push({ name, seconds: (performance.now() - started) / 1000 });
  return status;
};
const projects = (...names) => names.flatMap((name) => ["--project", name]);
const args = process.argv.slice(2);
const statuses =
  args.length > 0
    ? [pass(args.join(" "), args)]
    : [
        pass("unit + web + integration", projects("unit", "web", "integration")),
        pass("e2e", projects("e2e")),
        pass("reliability", projects("reliability")),
      ];

const files = existsSync(tally)
  ? readFileSync(tally, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
const minutes = (seconds) => `${(seconds / 60).toFixed(1)} min`;
const say = (line = "") => process.stdout.write(`${line}\n`);
say("\nDurations (wall clock of each pass; a project's files added up, which may overlap):");
for (const { name, seconds } of passes) say(`  ${name}: ${minutes(seconds)}`);
for (const project of [...new Set(files.map((file) => file.project))]) {
  const own = files.filter((file) => file.project === project);
  const seconds = own.reduce((total, file) => total + file.ms, 0) / 1000;
  say(`    ${project}: ${own.length} files, ${minutes(seconds)}`);
}
say("  slowest files:");
for (const file of [...files].sort((a, b) => b.ms - a.ms).slice(0, 10))
  say(`    ${(file.ms / 1000).toFixed(0).padStart(4)} s  ${file.file} (${file.project})`);
const total = passes.reduce((sum, { seconds }) => sum + seconds, 0);
say(`  all: ${minutes(total)}`);

const count = (key) => files.reduce((sum, file) => sum + file[key], 0);
const [passed, failed, skipped] = [count("passed"), count("failed"), count("skipped")];
const failures = files.flatMap((file) =>
  (file.failures ?? []).map((name) => `${file.file} > ${name}`),
);
if (failures.length > 0) {
  say("\nfailed:");
  for (const failure of failures) say(`  ${failure}`);
}
say(`\nall tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
say(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(statuses.find((status) => status !== 0) ?? 0);
