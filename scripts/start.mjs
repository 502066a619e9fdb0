// `npm start`: build the web app and bundle the server if needed, then run the server (which
// spawns the local chain). Signals are passed on so Ctrl-C stops everything.
import { spawn } from "node:child_process";
import path from "node:path";
import { serverArgs } from "./build-server.mjs";
import { buildWebIfStale } from "./build-web.mjs";

const root = path.resolve(import.meta.dirname, "..");
buildWebIfStale();

const server = spawn(process.execPath, serverArgs(), { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
