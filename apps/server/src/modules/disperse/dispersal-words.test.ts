import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import type { TransferRow } from "./dispersal-transfers.ts";
import { describe as describeTransfer, outcomeLine, receivedLine } from "./dispersal-words.ts";
import type { DispersalRow } from "./disperse.repository.ts";

const HASH = `0x${"ab".repeat(32)}`;
const WALLET = "0x1111111111111111111111111111111111111111";
const FUNDER = "0x2222222222222222222222222222222222222222";

const direct = { antiBubblemaps: false, funder: FUNDER } as DispersalRow;
const transfer = (overrides: Partial<TransferRow>): TransferRow =>
  ({
    kind: "hop",
    leg: 0,
    step: 0,
    to: WALLET,
    value: parseEther("0.11").toString(),
    txHash: HASH,
    reason: null,
    error: null,
    ...overrides,
  }) as TransferRow;

describe("a dispersal's status lines", () => {
  it("say a delivered amount in BNB to 4 decimals, not 18", () => {
    const line = describeTransfer(direct, transfer({ value: "110000000000000001" }), true);
    expect(line).toBe(`Sent 0.1100 BNB to ${WALLET} (tx ${HASH})`);
  });

  it("say the funding received to 4 decimals", () => {
    expect(receivedLine(direct, parseEther("0.430123456789"), FUNDER)).toBe(
      `Received 0.4301 BNB from ${FUNDER}; sending to every wallet...`,
    );
  });

  it("say what went back to the funder of a partial dispersal to 4 decimals", () => {
    expect(outcomeLine(direct, "partial", 1, 2, parseEther("0.259979"))).toBe(
      `Dispersal partially completed: 1/2 wallets delivered; 0.2600 BNB went back to the funder ${FUNDER}`,
    );
  });

  it("say a refund too small for 4 decimals is less than 0.0001 BNB", () => {
    const line = describeTransfer(
      direct,
      transfer({ kind: "refund", leg: null, step: null, value: "1000", reason: "Paid twice" }),
      true,
    );
    expect(line).toBe(`Refunded less than 0.0001 BNB to ${WALLET}: Paid twice (tx ${HASH})`);
  });
});
