import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import { bundleRefusal } from "./bundleRefusal.ts";

const hash = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hex;
const WALLET = "0x00000000000000000000000000000000000000aB";
const txs = [
  { hash: hash(1), role: "the create" },
  { hash: hash(2), role: `the buy by wallet ${WALLET}` },
  { hash: hash(3), role: "the tip to local" },
];

describe("bundleRefusal", () => {
  it("names the reverting transaction by its role and translates four.meme's code", () => {
    const refusal = bundleRefusal({
      builder: "local",
      error: {
        message: `transaction 1 (${hash(2)}) would revert: Slippage`,
        data: { index: 1, hash: hash(2), reason: "Slippage" },
      },
      txs,
    });
    expect(refusal.reason).toBe(
      `the buy by wallet ${WALLET} would revert: Slippage: the price moved past the slippage limit`,
    );
    expect(refusal.transaction).toEqual({
      index: 1,
      hash: hash(2),
      role: `the buy by wallet ${WALLET}`,
      revert: "Slippage",
    });
  });

  it("keeps the node's words for a transaction refused before it ran", () => {
    const refusal = bundleRefusal({
      builder: "local",
      error: {
        message: `transaction 2 (${hash(3)}) was refused: insufficient funds for gas * price + value`,
        data: { index: 2, hash: hash(3) },
      },
      txs,
    });
    expect(refusal.reason).toBe(
      "the tip to local was refused: insufficient funds for gas * price + value",
    );
  });

  it("trusts the hash over the index when they disagree", () => {
    const refusal = bundleRefusal({
      builder: "b",
      error: { message: "reverted", data: { index: 2, hash: hash(1), reason: "Value" } },
      txs,
    });
    expect(refusal.reason).toBe(
      "the create would revert: Value: the BNB sent does not match the amount",
    );
  });

  it("keeps an unknown revert string as it is", () => {
    const refusal = bundleRefusal({
      builder: "b",
      error: { message: "x", data: { index: 0, reason: "custom failure" } },
      txs,
    });
    expect(refusal.reason).toBe("the create would revert: custom failure");
  });

  it("keeps the builder's message when it blames no transaction of the bundle", () => {
    expect(
      bundleRefusal({ builder: "48club", error: { message: "bundle tip too low" }, txs }),
    ).toEqual({ builder: "48club", reason: "bundle tip too low" });
    expect(
      bundleRefusal({
        builder: "b",
        error: { message: "unknown tx", data: { hash: hash(9) } },
        txs,
      }),
    ).toEqual({ builder: "b", reason: "unknown tx" });
  });
});
