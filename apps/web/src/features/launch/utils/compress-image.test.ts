import { describe, expect, it, vi } from "vitest";
import {
  checkLogoFile,
  compressWith,
  dataUrlBytes,
  fitWithin,
  IMAGE_MESSAGES,
  LOGO_LIMITS,
} from "./compress-image.ts";

const dataUrlOf = (bytes: number) =>
  `data:image/jpeg;base64,${Buffer.alloc(bytes).toString("base64")}`;

const run = (sizes: number[], dims = { width: 1200, height: 600 }) => {
  const encode = vi.fn((_img: null, _size: unknown, _type: string, _q: number) =>
    dataUrlOf(sizes.shift() ?? 0),
  );
  const result = compressWith("image/png", { load: async () => null, sizeOf: () => dims, encode });
  return { result, encode };
};

describe("logo compression", () => {
  it("checks type and the 5 MB limit", () => {
    expect(checkLogoFile({ type: "text/plain", size: 10 })).toBe(IMAGE_MESSAGES.notImage);
    expect(checkLogoFile({ type: "image/png", size: 5 * 1024 * 1024 })).toBe(
      IMAGE_MESSAGES.tooLarge,
    );
    expect(checkLogoFile({ type: "image/png", size: 5 * 1024 * 1024 - 1 })).toBeNull();
  });

  it("fits the longer side into 400 px and never upscales", () => {
    expect(fitWithin(1200, 600)).toEqual({ width: 400, height: 200 });
    expect(fitWithin(300, 900)).toEqual({ width: 133, height: 400 });
    expect(fitWithin(100, 50)).toEqual({ width: 100, height: 50 });
  });

  it("measures a data URL's bytes", () => {
    expect(dataUrlBytes(dataUrlOf(1000))).toBe(1000);
    expect(dataUrlBytes(dataUrlOf(1001))).toBe(1001);
  });

  it("encodes once at 0.8 when small enough", async () => {
    const { result, encode } = run([1000]);
    await expect(result).resolves.toBe(dataUrlOf(1000));
    expect(encode).toHaveBeenCalledTimes(1);
    expect(encode.mock.calls[0]?.[1]).toEqual({ width: 400, height: 200 });
    expect(encode.mock.calls[0]?.[2]).toBe("image/webp");
    expect(encode.mock.calls[0]?.[3]).toBe(0.8);
  });

  it("retries at 0.7 × quality above 400 KB", async () => {
    const { result, encode } = run([LOGO_LIMITS.retryAboveBytes + 1, 450 * 1024]);
    await expect(result).resolves.toBe(dataUrlOf(450 * 1024));
    expect(encode.mock.calls[1]?.[3]).toBeCloseTo(0.56);
  });

  it("refuses more than 500 KB after the retry", async () => {
    const { result } = run([600 * 1024, LOGO_LIMITS.maxBytes + 1]);
    await expect(result).rejects.toThrow(IMAGE_MESSAGES.tooLargeAfter);
  });

  it("reports failed encodes", async () => {
    const failing = (urls: string[]) =>
      compressWith("image/jpeg", {
        load: async () => null,
        sizeOf: () => ({ width: 10, height: 10 }),
        encode: () => urls.shift() ?? "",
      });
    await expect(failing(["data:,"])).rejects.toThrow(IMAGE_MESSAGES.compressFailed);
    await expect(failing([dataUrlOf(500 * 1024), "data:,"])).rejects.toThrow(
      IMAGE_MESSAGES.compressFurtherFailed,
    );
  });
});
