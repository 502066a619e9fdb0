// `npm test`: everything — unit, web components (jsdom + msw), integration (real anvil,
// real database), browser tests (Debian's Chromium headless shell, installed here when missing)
// and the reduced reliability run (reliability/).
import { execFileSync, spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from "node:fs";
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
const runStarted = performance.now();

// Browser tests start real servers and Chromium and are bound by the CPU: on a 2-core machine
// they run alone. The first pass (unit, web, integration) waits for blocks and servers about a
// quarter of its time, so the reduced reliability run goes beside it, its output kept and
// printed when it ends. Arguments go straight to vitest, as one pass.
const vitest = (args, env = {}, output = "inherit") =>
  new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [path.join(root, "node_modules/vitest/vitest.mjs"), "run", ...args],
      { cwd: root, stdio: ["ignore", output, output], env: { ...process.env, ...env } },
    );
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const projects = (...names) => names.flatMap((name) => ["--project", name]);
const scratch = mkdtempSync(path.join(tmpdir(), "bundler-test-"));
const tally = path.join(scratch, "tally");
const passes = [];
/** One vitest run, timed, its files added to the tally; `output` a file for a run beside another. */
const pass = async (name, args, { env = {}, output } = {}) => {
  const started = performance.now();
  const fd = output ? openSync(output, "w") : undefined;
  const status = await vitest(args, { TEST_TALLY_FILE: tally, ...env }, fd ?? "inherit");
  if (fd !== undefined) closeSync(fd);
  passes.push({ name, seconds: (performance.now() - started) / 1000 });
  return status;
};
/** The reduced reliability run beside the first pass: its ports drawn from ranges of their own. */
const besideFirst = async () => {
  const output = path.join(scratch, "reliability.log");
  const status = await pass("reliability (beside the first pass)", projects("reliability"), {
    env: { TEST_PORT_WORKER_OFFSET: "4" },
    output,
  });
  return { status, output };
};
const args = process.argv.slice(2);
const statuses = [];
if (args.length > 0) statuses.push(await pass(args.join(" "), args));
else {
  const reliability = besideFirst();
  statuses.push(await pass("unit + web + integration", projects("unit", "web", "integration")));
  const { status, output } = await reliability;
  process.stdout.write(`\n--- the reduced reliability run (beside the first pass) ---\n`);
  process.stdout.write(readFileSync(output, "utf8"));
  statuses.push(status);
  statuses.push(await pass("e2e", projects("e2e")));
}

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
say(`  all: ${minutes((performance.now() - runStarted) / 1000)}`);

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
