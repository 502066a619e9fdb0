import { describe, expect, it } from "vitest";
import {
  forgetReferralCode,
  REFERRAL_CODE_KEY,
  readReferralCode,
  referralCodeFrom,
  rememberReferralCode,
} from "./referral-code.ts";

/** A Storage over a Map, as localStorage behaves. */
const memoryStorage = (initial: Record<string, string> = {}) => {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (name: string) => items.get(name) ?? null,
    setItem: (name: string, value: string) => void items.set(name, value),
    removeItem: (name: string) => void items.delete(name),
  };
};

describe("referralCodeFrom", () => {
  it("reads the referral parameter among others", () => {
    expect(referralCodeFrom("?draft=4&referral=Cat_Club-1")).toBe("Cat_Club-1");
  });

  it("answers null without a referral parameter", () => {
    expect(referralCodeFrom("?draft=4")).toBeNull();
  });

  it("refuses a value that cannot be a code", () => {
    for (const bad of ["ab", "a".repeat(21), "cat club", "cat!", ""])
      expect(referralCodeFrom(`?referral=${encodeURIComponent(bad)}`)).toBeNull();
  });
});

describe("rememberReferralCode", () => {
  it("stores the code of the link under referralCode", () => {
    const storage = memoryStorage();
    expect(rememberReferralCode("?referral=CATS", storage)).toBe("CATS");
    expect(storage.items.get(REFERRAL_CODE_KEY)).toBe("CATS");
  });

  it("lets the latest link win", () => {
    const storage = memoryStorage({ [REFERRAL_CODE_KEY]: "FIRST" });
    rememberReferralCode("?referral=SECOND", storage);
    expect(storage.items.get(REFERRAL_CODE_KEY)).toBe("SECOND");
  });

  it("keeps the stored code when the page has no referral parameter", () => {
    const storage = memoryStorage({ [REFERRAL_CODE_KEY]: "FIRST" });
    expect(rememberReferralCode("?draft=1", storage)).toBeNull();
    expect(storage.items.get(REFERRAL_CODE_KEY)).toBe("FIRST");
  });

  it("survives storage that throws", () => {
    const broken = {
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(rememberReferralCode("?referral=CATS", broken)).toBe("CATS");
  });
});

describe("readReferralCode", () => {
  it("answers the stored code", () => {
    expect(readReferralCode(memoryStorage({ [REFERRAL_CODE_KEY]: "CATS" }))).toBe("CATS");
  });

  it("ignores a stored value that is not a code", () => {
    expect(readReferralCode(memoryStorage({ [REFERRAL_CODE_KEY]: "<script>" }))).toBeNull();
  });

  it("answers null when storage cannot be read", () => {
    const broken = {
      getItem: () => {
        throw new Error("SecurityError");
      },
    };
    expect(readReferralCode(broken)).toBeNull();
  });
});

describe("forgetReferralCode", () => {
  it("removes the stored code", () => {
    const storage = memoryStorage({ [REFERRAL_CODE_KEY]: "CATS" });
    forgetReferralCode(storage);
    expect(readReferralCode(storage)).toBeNull();
  });
});
