import type { AccountKey } from "@bundler/shared";
import { describe, expect, it } from "vitest";
import { BACKUP_MESSAGES, decryptBackup, encryptBackup, passphraseProblem } from "./key-backup.ts";

const ACCESS_KEY = "lbk_backup-test-key-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const WALLETS: AccountKey[] = [
  {
    address: "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf",
    purpose: "deployer",
    privateKey: `0x${"0".repeat(63)}1`,
    draftId: "c0ffee00-0000-4000-8000-000000000001",
    createdAt: "2026-11-27T20:00:00.000Z",
  },
];
/** Few rounds: these tests check the format, not the work factor. */
const FAST = { iterations: 1_000 };

const backupText = async (passphrase = "correct horse battery") =>
  JSON.stringify(
    await encryptBackup({ accessKey: ACCESS_KEY, wallets: WALLETS }, passphrase, FAST),
  );

describe("the account backup file", () => {
  it("opens with its passphrase to the access key and every wallet key", async () => {
    const contents = await decryptBackup(await backupText(), "correct horse battery");
    expect(contents.accessKey).toBe(ACCESS_KEY);
    expect(contents.wallets).toEqual(WALLETS);
  });

  it("holds neither the key nor a wallet key in the clear, and says its format and version", async () => {
    const text = await backupText();
    expect(text).not.toContain(ACCESS_KEY);
    expect(text).not.toContain(WALLETS[0]?.privateKey.slice(2));
    expect(JSON.parse(text)).toMatchObject({
      format: "launch-bundler-backup",
      version: 1,
      kdf: { name: "PBKDF2", hash: "SHA-256", iterations: 1_000 },
      cipher: { name: "AES-GCM" },
    });
  });

  it("uses a fresh salt and IV for every file", async () => {
    const [one, two] = [JSON.parse(await backupText()), JSON.parse(await backupText())];
    expect(one.kdf.salt).not.toBe(two.kdf.salt);
    expect(one.cipher.iv).not.toBe(two.cipher.iv);
  });

  it("says the passphrase is wrong when it is", async () => {
    await expect(decryptBackup(await backupText(), "wrong horse battery")).rejects.toThrow(
      BACKUP_MESSAGES.wrongPassphrase,
    );
  });

  it("says a file is not a backup when it is some other JSON or not JSON", async () => {
    await expect(decryptBackup('[{"address":"0x1"}]', "whatever1")).rejects.toThrow(
      BACKUP_MESSAGES.notBackup,
    );
    await expect(decryptBackup("lbk_plain-key", "whatever1")).rejects.toThrow(
      BACKUP_MESSAGES.notBackup,
    );
  });

  it("says a backup from a newer version is one", async () => {
    const file = { ...JSON.parse(await backupText()), version: 2 };
    await expect(decryptBackup(JSON.stringify(file), "correct horse battery")).rejects.toThrow(
      BACKUP_MESSAGES.newerVersion,
    );
  });
});

describe("a new backup's passphrase", () => {
  it("must be at least 8 characters", () => {
    expect(passphraseProblem("short", "short")).toBe(BACKUP_MESSAGES.passphraseShort);
  });

  it("must be typed the same twice", () => {
    expect(passphraseProblem("long enough", "long enougH")).toBe(
      BACKUP_MESSAGES.passphraseMismatch,
    );
    expect(passphraseProblem("long enough", "long enough")).toBeNull();
  });
});
