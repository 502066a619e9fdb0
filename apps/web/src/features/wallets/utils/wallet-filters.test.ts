import type { WalletBalance } from "@bundler/shared";
import { describe, expect, it } from "vitest";
import { compareTokens, hasBnb, holdsTokens, matchesAddress } from "./wallet-filters.ts";

const entry = (tokenUnits: string, bnbBalance: string): WalletBalance => ({
  address: "0xaBcd000000000000000000000000000000000001",
  tokenBalance: tokenUnits,
  tokenUnits,
  bnbBalance,
});

describe("wallet shortcuts", () => {
  it("[non-empty] means a token balance above 0", () => {
    expect(holdsTokens(entry("1", "0"))).toBe(true);
    expect(holdsTokens(entry("0", "5"))).toBe(false);
  });

  it("[has BNB] means more than 0.001 BNB", () => {
    expect(hasBnb(entry("0", "0.001"))).toBe(false);
    expect(hasBnb(entry("0", "0.001000000000000001"))).toBe(true);
    expect(hasBnb(entry("0", "2"))).toBe(true);
  });

  it("searches addresses case-insensitively and sorts token balances exactly", () => {
    expect(matchesAddress(entry("0", "0"), " abcd ")).toBe(true);
    expect(matchesAddress(entry("0", "0"), "ffff")).toBe(false);
    const big = entry("100000000000000000000000001", "0");
    const smaller = entry("100000000000000000000000000", "0");
    expect(compareTokens(big, smaller)).toBe(1);
    expect(compareTokens(smaller, big)).toBe(-1);
    expect(compareTokens(big, big)).toBe(0);
  });
});
