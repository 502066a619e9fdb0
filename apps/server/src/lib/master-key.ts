import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface MasterKeySource {
  masterKey?: string | undefined;
  masterKeyFile?: string | undefined;
  dataDir: string;
}

/**
 * The 32-byte key that encrypts every private key at rest. From MASTER_KEY or
 * MASTER_KEY_FILE; otherwise `<dataDir>/master.key`, created (mode 0600) on first start.
 * A key file that group or others may read is refused: whoever reads it reads every wallet.
 */
export const loadMasterKey = (source: MasterKeySource): { key: Buffer; created: string | null } => {
  if (source.masterKey) return { key: Buffer.from(source.masterKey, "hex"), created: null };
  const file = source.masterKeyFile ?? path.join(source.dataDir, "master.key");
  if (!existsSync(file)) {
    if (source.masterKeyFile) throw new Error(`MASTER_KEY_FILE ${file} does not exist`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
    return { key: readKeyFile(file), created: file };
  }
  return { key: readKeyFile(file), created: null };
};

const readKeyFile = (file: string): Buffer => {
  const mode = statSync(file).mode & 0o777;
  if (process.platform !== "win32" && mode & 0o077)
    throw new Error(
      `${file} may be read by other users (mode 0${mode.toString(8)}): run chmod 600 ${file}`,
    );
  const text = readFileSync(file, "utf8").trim();
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new Error(`${file} must hold 64 hex characters`);
  return Buffer.from(text, "hex");
};
