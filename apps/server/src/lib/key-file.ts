import { readFileSync, statSync } from "node:fs";
import type { Hex } from "viem";

/**
 * A private key (0x + 64 hex) from the file `variable` names: refused when other users may
 * read it (with the chmod that fixes it) or when it holds anything else. Its content is never
 * in an error.
 */
export const readPrivateKeyFile = (file: string, variable: string): Hex => {
  const mode = statSync(file).mode & 0o777;
  if (process.platform !== "win32" && mode & 0o077)
    throw new Error(
      `${file} may be read by other users (mode 0${mode.toString(8)}): run chmod 600 ${file}`,
    );
  const text = readFileSync(file, "utf8").trim();
  if (!/^0x[0-9a-fA-F]{64}$/.test(text))
    throw new Error(`${variable} ${file} must hold 0x and 64 hex characters`);
  return text as Hex;
};
