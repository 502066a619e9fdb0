/** SPEC §9 logo limits. */
export const LOGO_LIMITS = {
  maxUploadBytes: 5 * 1024 * 1024,
  maxSide: 400,
  quality: 0.8,
  /** Above this the encode is retried at 0.7 × quality. */
  retryAboveBytes: 400 * 1024,
  retryFactor: 0.7,
  maxBytes: 500 * 1024,
} as const;

export const IMAGE_MESSAGES = {
  notImage: "Please upload an image file",
  tooLarge: "Image must be smaller than 5MB",
  readFailed: "Failed to read file",
  loadFailed: "Failed to load image",
  noCanvas: "Failed to get canvas context",
  compressFailed: "Failed to compress image",
  compressFurtherFailed: "Failed to compress image further",
  tooLargeAfter: "Image is too large after compression. Please use a smaller image (max 500KB).",
  missing: "Please upload a logo",
} as const;

export class ImageError extends Error {
  override readonly name = "ImageError" as const;
}

/** Scales down (never up) so the longer side is at most `maxSide`. */
export function fitWithin(width: number, height: number, maxSide: number = LOGO_LIMITS.maxSide) {
  const scale = Math.min(1, maxSide / Math.max(width, height, 1));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** Decoded size of a base64 data URL. */
export function dataUrlBytes(dataUrl: string): number {
  const comma = dataUrl.indexOf(",");
  const base64 = comma === -1 ? "" : dataUrl.slice(comma + 1);
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/** Transparent sources keep transparency as WebP; photos go to JPEG. */
export const outputTypeFor = (inputType: string) =>
  inputType === "image/jpeg" ? "image/jpeg" : "image/webp";

export interface ImageFileLike {
  type: string;
  size: number;
}

/** The checks before reading: an image, under 5 MB. */
export function checkLogoFile(file: ImageFileLike): string | null {
  if (!file.type.startsWith("image/")) return IMAGE_MESSAGES.notImage;
  if (file.size >= LOGO_LIMITS.maxUploadBytes) return IMAGE_MESSAGES.tooLarge;
  return null;
}

export interface CompressDeps<Img> {
  load: () => Promise<Img>;
  sizeOf: (image: Img) => { width: number; height: number };
  /** Draws at the size and encodes; returns a data URL, or "" when encoding failed. */
  encode: (
    image: Img,
    size: { width: number; height: number },
    type: string,
    quality: number,
  ) => string;
}

/** The compression pipeline, free of DOM so it can be tested: fit, encode, retry, cap. */
export async function compressWith<Img>(
  inputType: string,
  deps: CompressDeps<Img>,
): Promise<string> {
  const image = await deps.load();
  const { width, height } = deps.sizeOf(image);
  const size = fitWithin(width, height);
  const type = outputTypeFor(inputType);
  let dataUrl = deps.encode(image, size, type, LOGO_LIMITS.quality);
  if (!dataUrl.startsWith("data:image/")) throw new ImageError(IMAGE_MESSAGES.compressFailed);
  if (dataUrlBytes(dataUrl) > LOGO_LIMITS.retryAboveBytes) {
    dataUrl = deps.encode(image, size, type, LOGO_LIMITS.quality * LOGO_LIMITS.retryFactor);
    if (!dataUrl.startsWith("data:image/"))
      throw new ImageError(IMAGE_MESSAGES.compressFurtherFailed);
  }
  if (dataUrlBytes(dataUrl) > LOGO_LIMITS.maxBytes)
    throw new ImageError(IMAGE_MESSAGES.tooLargeAfter);
  return dataUrl;
}
