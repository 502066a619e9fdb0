import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadMasterKey } from "./master-key.ts";

const HEX = "ab".repeat(32);
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "lb-master-key-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const keyFile = (name: string, mode: number, content = `${HEX}\n`) => {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  chmodSync(file, mode);
  return file;
};

describe("loadMasterKey", () => {
  it("creates <data dir>/master.key readable by its owner only on a first start, and says so", () => {
    const first = loadMasterKey({ dataDir: dir });
    const file = path.join(dir, "master.key");
    expect(first.created).toBe(file);
    expect(first.key).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = loadMasterKey({ dataDir: dir });
    expect(again).toEqual({ key: first.key, created: null });
  });

  it("takes MASTER_KEY as it is, touching no file", () => {
    expect(loadMasterKey({ masterKey: HEX, dataDir: dir })).toEqual({
      key: Buffer.from(HEX, "hex"),
      created: null,
    });
  });

  it("reads MASTER_KEY_FILE when only its owner may read it", () => {
    const file = keyFile("secret.key", 0o400);
    expect(loadMasterKey({ masterKeyFile: file, dataDir: dir }).key).toEqual(
      Buffer.from(HEX, "hex"),
    );
  });

  it("refuses a MASTER_KEY_FILE that group or others may read, naming the chmod that fixes it", () => {
    for (const mode of [0o640, 0o604, 0o644, 0o444]) {
      const file = keyFile(`open-${mode.toString(8)}.key`, mode);
      expect(() => loadMasterKey({ masterKeyFile: file, dataDir: dir })).toThrow(
        `${file} may be read by other users (mode 0${mode.toString(8)}): run chmod 600 ${file}`,
      );
    }
  });

  it("refuses a master.key in the data directory that group or others may read", () => {
    const file = keyFile("master.key", 0o644);
    expect(() => loadMasterKey({ dataDir: dir })).toThrow(`chmod 600 ${file}`);
  });

  it("refuses a MASTER_KEY_FILE that does not exist, creating nothing", () => {
    const file = path.join(dir, "missing.key");
    expect(() => loadMasterKey({ masterKeyFile: file, dataDir: dir })).toThrow(
      `MASTER_KEY_FILE ${file} does not exist`,
    );
  });

  it("refuses a key file that does not hold 64 hex characters", () => {
    const file = keyFile("short.key", 0o600, "abcd\n");
    expect(() => loadMasterKey({ masterKeyFile: file, dataDir: dir })).toThrow(
      `${file} must hold 64 hex characters`,
    );
  });
});
