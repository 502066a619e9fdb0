import { checkLogoFile, compressWith, IMAGE_MESSAGES, ImageError } from "./compress-image.ts";

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () =>
      typeof reader.result === "string"
        ? resolve(reader.result)
        : reject(new ImageError(IMAGE_MESSAGES.readFailed));
    reader.onerror = () => reject(new ImageError(IMAGE_MESSAGES.readFailed));
    reader.readAsDataURL(file);
  });
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new ImageError(IMAGE_MESSAGES.loadFailed));
    image.src = src;
  });
}

function encode(
  image: HTMLImageElement,
  size: { width: number; height: number },
  type: string,
  quality: number,
): string {
  const canvas = document.createElement("canvas");
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext("2d");
  if (!context) throw new ImageError(IMAGE_MESSAGES.noCanvas);
  context.drawImage(image, 0, 0, size.width, size.height);
  const dataUrl = canvas.toDataURL(type, quality);
  // A browser without WebP encoding answers PNG, which ignores quality: use JPEG instead.
  if (type === "image/webp" && !dataUrl.startsWith("data:image/webp"))
    return canvas.toDataURL("image/jpeg", quality);
  return dataUrl;
}

/** Checks, then compresses a logo in a canvas to a data URL; throws ImageError with the spec's text. */
export async function compressLogo(file: File): Promise<string> {
  const problem = checkLogoFile(file);
  if (problem) throw new ImageError(problem);
  const source = await readAsDataUrl(file);
  return compressWith(file.type, {
    load: () => loadImage(source),
    sizeOf: (image) => ({ width: image.naturalWidth, height: image.naturalHeight }),
    encode,
  });
}
