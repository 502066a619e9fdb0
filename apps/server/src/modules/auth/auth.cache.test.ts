import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { type CachedKey, KeyCache } from "./auth.cache.ts";

const entry = (role: "user" | "admin" = "user"): CachedKey => ({
  user: { id: "u1", role },
  lastUsedAt: null,
});

const listening = (options?: ConstructorParameters<typeof KeyCache>[0]) => {
  const cache = new KeyCache(options);
  cache.listening();
  return cache;
};

describe("KeyCache", () => {
  it("serves nothing until its listener is connected", () => {
    const cache = new KeyCache();
    cache.set("d1", entry(), cache.begin());
    expect(cache.get("d1")).toBeUndefined();
    cache.listening();
    cache.set("d1", entry(), cache.begin());
    expect(cache.get("d1")).toEqual(entry());
  });

  it("forgets everything and stops serving when the listener is lost", () => {
    const cache = listening();
    cache.set("d1", entry(), cache.begin());
    cache.lost();
    expect(cache.size).toBe(0);
    cache.set("d1", entry(), cache.begin());
    expect(cache.get("d1")).toBeUndefined();
    cache.listening();
    expect(cache.get("d1")).toBeUndefined();
  });

  it("does not keep a read that began before a change was heard", () => {
    const cache = listening();
    const before = cache.begin();
    cache.message("d1"); // the key changed while its row was being read
    cache.set("d1", entry(), before);
    expect(cache.get("d1")).toBeUndefined();
    cache.set("d1", entry(), cache.begin());
    expect(cache.get("d1")).toBeDefined();
  });

  it("forgets one digest per notification, and every digest on '*'", () => {
    const cache = listening();
    cache.set("d1", entry(), cache.begin());
    cache.set("d2", entry(), cache.begin());
    cache.set("d3", null, cache.begin());
    cache.message("d1");
    expect(cache.get("d1")).toBeUndefined();
    expect(cache.get("d2")).toBeDefined();
    expect(cache.get("d3")).toBeNull();
    cache.message("d3");
    expect(cache.get("d3")).toBeUndefined();
    cache.message("*");
    expect(cache.size).toBe(0);
  });

  it("expires answers after the TTL, so a missed notification cannot keep one forever", async () => {
    const cache = listening({ ttlMs: 40, unknownTtlMs: 40 });
    cache.set("d1", entry(), cache.begin());
    cache.set("d2", null, cache.begin());
    expect(cache.get("d1")).toBeDefined();
    await sleep(80);
    expect(cache.get("d1")).toBeUndefined();
    expect(cache.get("d2")).toBeUndefined();
  });

  it("is bounded, and unknown digests cannot push known keys out", () => {
    const cache = listening({ max: 2, unknownMax: 2 });
    cache.set("k1", entry(), cache.begin());
    cache.set("k2", entry(), cache.begin());
    for (let i = 0; i < 10; i++) cache.set(`junk${i}`, null, cache.begin());
    expect(cache.get("k1")).toBeDefined();
    expect(cache.get("k2")).toBeDefined();
    cache.set("k3", entry(), cache.begin());
    expect(cache.size).toBe(4);
    expect(cache.get("k1")).toBeUndefined(); // the least recently used known key went
  });
});
