import { InsufficientFundsError } from "@bundler/chain";
import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { reasonOf } from "./launch-words.ts";

const A = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const B = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

describe("a launch's funding failure in words", () => {
  it("names every short wallet with what it lacks in BNB to 4 decimals, rounded up", () => {
    const error = new InsufficientFundsError(A, parseEther("0.010012345678901234"), [
      { address: B, shortfall: parseEther("0.11") },
    ]);
    expect(reasonOf(error)).toBe(
      `insufficient balance: 2 wallets are short: wallet ${A} needs 0.0101 BNB more; wallet ${B} needs 0.1100 BNB more`,
    );
  });

  it("says a single short wallet in BNB to 4 decimals", () => {
    const error = new InsufficientFundsError(A, 1n);
    expect(reasonOf(error)).toBe(`insufficient balance: wallet ${A} needs 0.0001 BNB more`);
  });
});
