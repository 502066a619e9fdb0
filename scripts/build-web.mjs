// Builds the web app when its sources are newer than the last build, so a second
// `npm start` is ready in seconds.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const web = path.join(root, "apps/web");
const builtIndex = path.join(web, "dist/index.html");

const newestMtime = (dir) => {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
};

export const buildWebIfStale = () => {
  const sources = Math.max(newestMtime(web), newestMtime(path.join(root, "packages/shared/src")));
  if (existsSync(builtIndex) && statSync(builtIndex).mtimeMs >= sources) return false;
  process.stdout.write("Building the web app...\n");
  execFileSync(
    process.execPath,
    [path.join(root, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"],
    {
      cwd: web,
      stdio: "inherit",
    },
  );
  return true;
};

if (import.meta.url === `file://${process.argv[1]}`) buildWebIfStale();
