// `npm start`: build the web app if needed, then run the server (which spawns the
// local chain). Signals are passed on so Ctrl-C stops everything.
import { spawn } from "node:child_process";
import path from "node:path";
import { buildWebIfStale } from "./build-web.mjs";

const root = path.resolve(import.meta.dirname, "..");
buildWebIfStale();

const server = spawn(
  process.execPath,
  ["--import", "tsx", path.join(root, "apps/server/src/main.ts")],
  {
    cwd: root,
    stdio: "inherit",
  },
);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
