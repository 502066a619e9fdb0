import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { creditOf, keptPart, type SeenDeposit } from "./deposit-credit.ts";

const FEE = parseEther("1");
const deposit = (txHash: string, value: string, refundable: string, blockNumber: bigint) =>
  ({
    txHash,
    value: parseEther(value).toString(),
    refundable: parseEther(refundable).toString(),
    blockNumber,
  }) satisfies SeenDeposit;
const judge = (deposits: SeenDeposit[], balance: string, windowOpen = true, scanned = 11n) =>
  creditOf({ amount: FEE, deposits, balance: parseEther(balance), head: 10n, scanned, windowOpen });

describe("counting deposits toward an amount", () => {
  it("credits by the recorded deposits at the last block read, nothing going back", () => {
    expect(judge([deposit("a", "1", "0", 5n)], "1", false, 8n)).toEqual({
      atBlock: 7n,
      refundable: [],
    });
  });

  it("credits by the balance only while the window is open and every block is read", () => {
    expect(judge([], "1", false)).toBeNull();
    expect(judge([], "1", true, 10n)).toBeNull();
    expect(judge([], "1")).toEqual({ atBlock: 10n, refundable: [] });
  });

  it("counts the money the scan did not see first, so a plain deposit beside it goes back in full", () => {
    expect(judge([deposit("a", "0.3", "0", 4n)], "1.3")).toEqual({
      atBlock: 10n,
      refundable: [{ txHash: "a", refundable: parseEther("0.3").toString() }],
    });
  });

  it("keeps of the plain deposits, oldest first, only what the unseen money lacks", () => {
    const credit = judge([deposit("b", "0.4", "0", 6n), deposit("a", "0.4", "0", 5n)], "1.2");
    expect(credit?.refundable).toEqual([
      { txHash: "a", refundable: "0" },
      { txHash: "b", refundable: parseEther("0.2").toString() },
    ]);
  });

  it("does not credit what is owed back", () => {
    expect(judge([deposit("a", "1", "1", 5n)], "1")).toBeNull();
  });

  it("keeps nothing of a transfer in a block after the credit, or a late one", () => {
    const base = { amount: FEE, earlier: [], value: FEE, late: false, creditedAt: 10n };
    expect(keptPart({ ...base, blockNumber: 11n })).toBe(0n);
    expect(keptPart({ ...base, blockNumber: 10n })).toBe(FEE);
    expect(keptPart({ ...base, blockNumber: 9n, late: true })).toBe(0n);
  });

  it("keeps of a transfer only what the amount still lacks", () => {
    const earlier = [deposit("a", "0.7", "0", 5n)];
    expect(
      keptPart({
        amount: FEE,
        earlier,
        value: FEE,
        late: false,
        blockNumber: 6n,
        creditedAt: null,
      }),
    ).toBe(parseEther("0.3"));
  });
});
