import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** A secret the run created or handed out, and what it is (for the report of a find). */
export interface Secret {
  what: string;
  value: string;
}

/**
 * The forms a secret is searched in, lowercase (the haystack is lowercased too, so any case
 * matches): a private key's 64 hex digits (with or without 0x: the bare digits cover both), an
 * access key as it was handed out.
 */
const needles = (secret: Secret): string[] => {
  const hex = /^(0x)?([0-9a-fA-F]{64})$/.exec(secret.value);
  if (hex?.[2]) return [hex[2].toLowerCase()];
  return [secret.value.toLowerCase()];
};

/** Every file under `dir`, recursively (symlinks not followed). */
export const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return entry.isFile() && statSync(full).size > 0 ? [full] : [];
  });

/** Where each secret occurs in the given texts (name → content): one line per find. */
export const findSecrets = (
  haystacks: Array<{ name: string; content: Buffer | string }>,
  secrets: Secret[],
): string[] => {
  const found: string[] = [];
  for (const { name, content } of haystacks) {
    const text = (typeof content === "string" ? content : content.toString("latin1")).toLowerCase();
    for (const secret of secrets)
      for (const needle of needles(secret))
        if (text.includes(needle)) found.push(`${secret.what} in ${name}`);
  }
  return found;
};

/** The data dir's files as haystacks. */
export const dataDirHaystacks = (dir: string) =>
  filesUnder(dir).map((file) => ({
    name: path.relative(dir, file),
    content: readFileSync(file),
  }));
