// Bundles the server's own sources (apps/server/src and the workspace packages it imports,
// not node_modules) into apps/server/dist/main.mjs when they changed since the last bundle:
// Node loads one file in about a second where tsx compiled some 300 at every start (2-3 s
// more), which every `npm start` and every test that starts a real server process pays.
// The embedded database's worker thread (src/db/pglite-worker.mjs) is an entry of its own,
// dist/pglite-worker.mjs: the server starts it from beside itself, as from the sources.
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
export const serverBundle = path.join(root, "apps/server/dist/main.mjs");
const workerBundle = path.join(root, "apps/server/dist/pglite-worker.mjs");
const sources = [
  "apps/server/src",
  "packages/chain/src",
  "packages/shared/src",
  "packages/contracts/src",
];

const newestMtime = (dir) => {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
};

export const buildServerIfStale = () => {
  const newest = Math.max(...sources.map((dir) => newestMtime(path.join(root, dir))));
  const fresh = (file) => existsSync(file) && statSync(file).mtimeMs >= newest;
  if (fresh(serverBundle) && fresh(workerBundle)) return false;
  const { outputFiles } = buildSync({
    entryPoints: [
      { in: path.join(root, "apps/server/src/main.ts"), out: "main" },
      { in: path.join(root, "apps/server/src/db/pglite-worker.mjs"), out: "pglite-worker" },
    ],
    outdir: path.dirname(serverBundle),
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    // node_modules stay where they are; the workspace packages are our own TypeScript.
    packages: "external",
    alias: {
      "@bundler/chain": path.join(root, "packages/chain/src/index.ts"),
      "@bundler/shared": path.join(root, "packages/shared/src/index.ts"),
      "@bundler/contracts": path.join(root, "packages/contracts/src/index.ts"),
    },
    logLevel: "warning",
    write: false,
  });
  // Each file written whole and renamed into place (the maps first, the worker before the
  // server): a server starting while another process bundles never loads half a file.
  mkdirSync(path.dirname(serverBundle), { recursive: true });
  const order = (file) => (file.path.endsWith(".map") ? 0 : file.path === serverBundle ? 2 : 1);
  for (const file of [...outputFiles].sort((a, b) => order(a) - order(b))) {
    const partial = `${file.path}.${process.pid}`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
  return true;
};

/** Node's arguments that run the server: its bundle, made first when stale. */
export const serverArgs = () => {
  buildServerIfStale();
  return ["--enable-source-maps", serverBundle];
};

if (import.meta.url === `file://${process.argv[1]}`) buildServerIfStale();
