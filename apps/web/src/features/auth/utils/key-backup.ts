import {
  ACCOUNT_BACKUP_FORMAT,
  ACCOUNT_BACKUP_VERSION,
  type AccountBackupContents,
  type AccountBackupFile,
  type AccountKey,
  accountBackupContentsSchema,
  accountBackupFileSchema,
} from "@bundler/shared";
import { base64ToBytes as fromBase64, bytesToBase64 as toBase64 } from "../../../lib/envelope.ts";

/*
 * The account backup file: the access key and every wallet key the user owns, encrypted in the
 * browser with a passphrase the user types (PBKDF2-SHA-256 → AES-256-GCM). The salt, the IV,
 * the iteration count and a version travel in the file; the key and wallets only encrypted.
 */

/** OWASP's figure for PBKDF2-HMAC-SHA256 (2023): about half a second in a browser. */
export const BACKUP_ITERATIONS = 600_000;
export const MIN_PASSPHRASE_LENGTH = 8;

export const BACKUP_MESSAGES = {
  passphraseShort: `The passphrase must be at least ${MIN_PASSPHRASE_LENGTH} characters`,
  passphraseMismatch: "The two passphrases do not match",
  passphraseRequired: "Please enter the backup's passphrase",
  notBackup: "This file is not a Launch Bundler backup",
  newerVersion: "This backup was made by a newer version of the app",
  wrongPassphrase: "Wrong passphrase: this backup cannot be opened with it",
} as const;

/** A backup that cannot be read; its message is for the user. */
export class BackupError extends Error {
  override readonly name = "BackupError";
}

const deriveKey = async (passphrase: string, salt: Uint8Array<ArrayBuffer>, iterations: number) => {
  const material = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(passphrase),
    "PBKDF2",
    false,
    ["deriveKey"],
  );
  return crypto.subtle.deriveKey(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
};

/** What is wrong with a new backup's passphrase and its repetition, or null. */
export function passphraseProblem(passphrase: string, repeated: string): string | null {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH) return BACKUP_MESSAGES.passphraseShort;
  if (passphrase !== repeated) return BACKUP_MESSAGES.passphraseMismatch;
  return null;
}

/** Encrypts the access key and wallet keys under `passphrase`: the file's JSON object. */
export async function encryptBackup(
  contents: { accessKey: string; wallets: AccountKey[] },
  passphrase: string,
  { iterations = BACKUP_ITERATIONS, now = new Date() } = {},
): Promise<AccountBackupFile> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await deriveKey(passphrase, salt, iterations);
  const createdAt = now.toISOString();
  const plain = new TextEncoder().encode(JSON.stringify({ ...contents, createdAt }));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, plain);
  return {
    format: ACCOUNT_BACKUP_FORMAT,
    version: ACCOUNT_BACKUP_VERSION,
    createdAt,
    kdf: { name: "PBKDF2", hash: "SHA-256", iterations, salt: toBase64(salt) },
    cipher: { name: "AES-GCM", iv: toBase64(iv) },
    data: toBase64(new Uint8Array(sealed)),
  };
}

/** Reads a backup file's text; throws a BackupError whose message a user can read. */
export async function decryptBackup(
  text: string,
  passphrase: string,
): Promise<AccountBackupContents> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BackupError(BACKUP_MESSAGES.notBackup);
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (typeof version === "number" && version > ACCOUNT_BACKUP_VERSION)
    throw new BackupError(BACKUP_MESSAGES.newerVersion);
  const parsed = accountBackupFileSchema.safeParse(json);
  if (!parsed.success) throw new BackupError(BACKUP_MESSAGES.notBackup);
  if (!passphrase) throw new BackupError(BACKUP_MESSAGES.passphraseRequired);
  const { kdf, cipher, data } = parsed.data;
  const key = await deriveKey(passphrase, fromBase64(kdf.salt), kdf.iterations);
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64(cipher.iv) },
      key,
      fromBase64(data),
    );
  } catch {
    // AES-GCM's tag fails alike for another passphrase and for a changed file.
    throw new BackupError(BACKUP_MESSAGES.wrongPassphrase);
  }
  let inside: unknown;
  try {
    inside = JSON.parse(new TextDecoder().decode(plain));
  } catch {
    throw new BackupError(BACKUP_MESSAGES.notBackup);
  }
  const contents = accountBackupContentsSchema.safeParse(inside);
  if (!contents.success) throw new BackupError(BACKUP_MESSAGES.notBackup);
  return contents.data;
}

/** The backup's file name: the key's first characters and the day, e.g. `lbk_Ab…-2026-11-27`. */
export const backupFileName = (accessKey: string, now = new Date()): string =>
  `launch-bundler-backup-${accessKey.slice(4, 10)}-${now.toISOString().slice(0, 10)}.json`;
