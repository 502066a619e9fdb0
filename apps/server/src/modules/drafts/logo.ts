import { createHash } from "node:crypto";

/**
 * Logos served at `GET /api/draft/logo/{hash}`: data URLs of these raster types only (an SVG
 * could carry script). The migration that added `drafts.logo_hash` backfills with the same
 * pattern, so keep the two in step.
 */
const SERVABLE = /^data:(image\/(?:png|jpeg|gif|webp));base64,/;

/** SHA-256 (hex) of a servable logo's data URL, or null when the logo is not served. */
export const logoHashOf = (image: string | undefined): string | null =>
  image && SERVABLE.test(image) ? createHash("sha256").update(image, "utf8").digest("hex") : null;

export const LOGO_HASH_PATTERN = /^[0-9a-f]{64}$/;

/** The image bytes and type of a servable logo, or null. */
export const decodeServableLogo = (
  image: string,
): { contentType: string; bytes: Buffer } | null => {
  const match = SERVABLE.exec(image);
  if (!match?.[1]) return null;
  const bytes = Buffer.from(image.slice(match[0].length), "base64");
  return bytes.length > 0 ? { contentType: match[1], bytes } : null;
};
