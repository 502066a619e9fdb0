import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeServableLogo, logoHashOf } from "./logo.ts";

const png = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString("base64")}`;

describe("draft logos", () => {
  it("hashes a PNG, JPEG, GIF or WebP data URL by its text, and serves its bytes", () => {
    expect(logoHashOf(png)).toBe(createHash("sha256").update(png).digest("hex"));
    expect(decodeServableLogo(png)).toEqual({
      contentType: "image/png",
      bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    });
    for (const type of ["jpeg", "gif", "webp"]) {
      const image = `data:image/${type};base64,AAAA`;
      expect(logoHashOf(image)).toMatch(/^[0-9a-f]{64}$/);
      expect(decodeServableLogo(image)?.contentType).toBe(`image/${type}`);
    }
  });

  it("neither hashes nor serves anything else", () => {
    for (const image of [
      "",
      undefined,
      "AAAA",
      "data:image/svg+xml;base64,PHN2Zy8+",
      "data:text/html;base64,PGgxPg==",
      "data:image/png,rawtext",
      "https://example.com/logo.png",
      " data:image/png;base64,AAAA",
    ]) {
      expect(logoHashOf(image), String(image)).toBeNull();
      if (image) expect(decodeServableLogo(image), image).toBeNull();
    }
    expect(decodeServableLogo("data:image/png;base64,")).toBeNull();
  });
});
