import { describe, expect, it } from "vitest";
import { accessKeyPrefix, digestsEqual, generateAccessKey, hashAccessKey } from "./crypto.ts";

describe("access keys", () => {
  it("carry a readable prefix and at least 128 random bits", () => {
    const key = generateAccessKey();
    expect(key).toMatch(/^lbk_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(4), "base64url").length * 8).toBeGreaterThanOrEqual(128);
  });

  it("are never generated twice", () => {
    const keys = new Set(Array.from({ length: 1000 }, generateAccessKey));
    expect(keys.size).toBe(1000);
  });

  it("hash to a SHA-256 hex digest that does not contain the key", () => {
    const key = generateAccessKey();
    const digest = hashAccessKey(key);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).toBe(hashAccessKey(key));
    expect(digest).not.toContain(key.slice(4, 12));
  });

  it("keep six characters for display", () => {
    expect(accessKeyPrefix("lbk_abcdef")).toBe("lbk_ab");
  });

  it("compare digests by value", () => {
    const digest = hashAccessKey("a");
    expect(digestsEqual(digest, hashAccessKey("a"))).toBe(true);
    expect(digestsEqual(digest, hashAccessKey("b"))).toBe(false);
    expect(digestsEqual(digest, "00")).toBe(false);
  });
});
