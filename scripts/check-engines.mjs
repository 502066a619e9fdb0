// `node scripts/check-engines.mjs [dir]`: fails when an installed package declares an
// `engines.node` range that excludes a Node version the root package.json allows.
// Checked: the lowest version the root `engines.node` admits (e.g. 20.19.0) and the running
// Node when the root range admits it, the same test npm's EBADENGINE warning uses.
// Walks package roots only (node_modules/<name>, node_modules/@scope/<name>, and their nested
// node_modules), in the root and in every workspace; symlinks (workspace links) are skipped.
import fs from "node:fs";
import path from "node:path";
import semver from "semver";

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));
const rootPkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const rootRange = rootPkg.engines?.node;
if (!rootRange || !semver.validRange(rootRange)) {
  console.error(`check-engines: root package.json has no valid engines.node (${rootRange})`);
  process.exit(1);
}

const versions = [semver.minVersion(rootRange).version];
const running = process.versions.node;
if (semver.satisfies(running, rootRange) && !versions.includes(running)) versions.push(running);

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/** Every package directory under a node_modules folder, nested node_modules included. */
function* packageDirs(nodeModules) {
  let entries;
  try {
    entries = fs.readdirSync(nodeModules, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name.startsWith(".") || !entry.isDirectory()) continue; // .bin, .package-lock.json, links
    const dir = path.join(nodeModules, entry.name);
    if (entry.name.startsWith("@")) {
      for (const scoped of fs.readdirSync(dir, { withFileTypes: true })) {
        if (!scoped.isDirectory()) continue;
        yield path.join(dir, scoped.name);
        yield* packageDirs(path.join(dir, scoped.name, "node_modules"));
      }
    } else {
      yield dir;
      yield* packageDirs(path.join(dir, "node_modules"));
    }
  }
}

const workspaceDirs = [root];
for (const pattern of rootPkg.workspaces ?? []) {
  // Only "dir/*" patterns are used here.
  const parent = path.join(root, pattern.replace(/\/\*$/, ""));
  if (!pattern.endsWith("/*")) workspaceDirs.push(path.join(root, pattern));
  else if (fs.existsSync(parent)) {
    for (const e of fs.readdirSync(parent, { withFileTypes: true })) {
      if (e.isDirectory()) workspaceDirs.push(path.join(parent, e.name));
    }
  }
}

let checked = 0;
const bad = [];
for (const ws of workspaceDirs) {
  for (const dir of packageDirs(path.join(ws, "node_modules"))) {
    const pkg = readJson(path.join(dir, "package.json"));
    if (!pkg?.name) continue;
    checked++;
    const range = pkg.engines?.node;
    if (typeof range !== "string") continue; // none, or the legacy array form npm ignores
    const excluded = versions.filter(
      (v) => !semver.satisfies(v, range, { includePrerelease: true }),
    );
    if (excluded.length > 0) {
      bad.push(`${pkg.name}@${pkg.version} requires node "${range}" (excludes ${excluded.join(", ")})
    at ${path.relative(root, dir)}`);
    }
  }
}

console.log(
  `check-engines: ${checked} packages checked against node ${versions.join(" and ")} (root engines "${rootRange}")`,
);
if (bad.length > 0) {
  console.error(`check-engines: ${bad.length} package(s) need a newer Node than the root allows:`);
  for (const line of bad) console.error(`  ${line}`);
  console.error(
    "Pin a compatible version (root package.json `overrides`) or lower the direct dependency.",
  );
  process.exit(1);
}
console.log("check-engines: ok");
