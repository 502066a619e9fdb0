import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The embedded database (and a local chain's state) belongs to one process at a time. Takes
 * `<dataDir>/server.pid`, refusing when a live process holds it, with `instead` as the way out;
 * answers a release function.
 */
export const lockDataDir = (
  dataDir: string,
  purpose: string,
  instead = "or use DATABASE_URL",
): (() => void) => {
  const file = path.join(dataDir, "server.pid");
  let holder: number | undefined;
  try {
    holder = Number(readFileSync(file, "utf8").trim());
  } catch {
    holder = undefined;
  }
  if (holder && holder !== process.pid && isAlive(holder)) {
    throw new Error(
      `${dataDir} is in use by process ${holder}; stop it before the ${purpose}, ${instead}`,
    );
  }
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
};
