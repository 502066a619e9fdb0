import { hash, randomBytes, timingSafeEqual } from "node:crypto";
import { ACCESS_KEY_DISPLAY_CHARS, ACCESS_KEY_PREFIX } from "@bundler/shared";

/** A new access key: readable prefix + 256 random bits, base64url. */
export const generateAccessKey = (): string => accessKeyFrom(randomBytes(32));

/** The access key made of these 32 bytes (random, or derived for a purchase). */
export const accessKeyFrom = (bytes: Buffer): string =>
  `${ACCESS_KEY_PREFIX}${bytes.toString("base64url")}`;

/** The only form of a key the database keeps. */
export const hashAccessKey = (key: string): string => hash("sha256", key, "hex");

/** The first characters of a key, shown in the admin list. */
export const accessKeyPrefix = (key: string): string => key.slice(0, ACCESS_KEY_DISPLAY_CHARS);

/** Constant-time comparison of two hex digests. */
export const digestsEqual = (a: string, b: string): boolean => {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
};
