import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { formatTokens, sellAmounts } from "./sell-amounts.ts";

const a = "0x1111111111111111111111111111111111111111";
const b = "0x2222222222222222222222222222222222222222";
const balances = [
  { address: a, token: parseEther("1000") },
  { address: b, token: 0n },
] as const;

describe("sellAmounts", () => {
  it("sells exactly each wallet's whole balance at 100 percent", () => {
    expect(sellAmounts({ amount: "100", isPercentage: true }, balances)[0]).toEqual({
      address: a,
      amount: parseEther("1000"),
    });
  });

  it("takes a percent with decimals of each balance, rounding down", () => {
    expect(sellAmounts({ amount: "33.3", isPercentage: true }, balances)[0]).toEqual({
      address: a,
      amount: parseEther("333"),
    });
  });

  it("refuses 0 percent", () => {
    expect(() => sellAmounts({ amount: "0", isPercentage: true }, balances)).toThrow(
      "Percent must be more than 0 and at most 100 (got 0)",
    );
  });

  it("refuses 101 percent", () => {
    expect(() => sellAmounts({ amount: "101", isPercentage: true }, balances)).toThrow(
      "Percent must be more than 0 and at most 100 (got 101)",
    );
  });

  it("refuses a token amount of zero", () => {
    expect(() => sellAmounts({ amount: "0.0", isPercentage: false }, balances)).toThrow(
      "Amount must be more than 0 tokens",
    );
  });

  it("refuses a token amount above a wallet's balance, naming the wallet", () => {
    expect(() => sellAmounts({ amount: "1000.5", isPercentage: false }, balances)).toThrow(
      `Wallet ${a} holds only 1,000 tokens, less than the 1,000.5 to sell`,
    );
  });

  it("reports a wallet holding none of the token as its own failure", () => {
    expect(sellAmounts({ amount: "10", isPercentage: false }, balances)).toEqual([
      { address: a, amount: parseEther("10") },
      { address: b, error: `wallet ${b} holds none of this token` },
    ]);
  });
});

describe("a wallet holding only dust of the token", () => {
  const withDust = [
    { address: a, token: parseEther("1000"), sellable: parseEther("1000") },
    { address: b, token: 1n, sellable: 0n },
  ] as const;

  it("is that wallet's own failure, and the others sell a token amount above the dust", () => {
    expect(sellAmounts({ amount: "10", isPercentage: false }, withDust)).toEqual([
      { address: a, amount: parseEther("10") },
      {
        address: b,
        error: `wallet ${b} holds only dust of this token (1 wei), less than a sale can take`,
      },
    ]);
  });
});

describe("formatTokens", () => {
  it("groups the whole part by thousands and shows at most 4 decimals, rounded down", () => {
    expect(formatTokens(parseEther("1234567.89"))).toBe("1,234,567.89");
    expect(formatTokens(parseEther("999"))).toBe("999");
    expect(formatTokens(parseEther("1356297.991234567891234567"))).toBe("1,356,297.9912");
    expect(formatTokens(1n)).toBe("0");
  });
});

describe("the reason for a sell above a balance", () => {
  it("says the balance to 4 decimals and the amount asked as typed", () => {
    const held = [{ address: a, token: parseEther("1356297.991234567891234567") }] as const;
    expect(() => sellAmounts({ amount: "99999999999", isPercentage: false }, held)).toThrow(
      `Wallet ${a} holds only 1,356,297.9912 tokens, less than the 99,999,999,999 to sell`,
    );
  });
});
