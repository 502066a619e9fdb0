import { describe, expect, it } from "vitest";
import { faucetAmount, fundingRows } from "./funding.ts";

describe("funding", () => {
  it("asks the faucet for the missing amount plus gas", () => {
    expect(faucetAmount("0.1", "0.04")).toBe("0.07");
    expect(faucetAmount("0.1", undefined)).toBe("0.11");
    expect(faucetAmount("0.1", "0.1")).toBeNull();
  });

  it("lists what deployer, tip payer and bundle wallets need", () => {
    const rows = fundingRows({
      wallets: [{ address: "0xb", privateKey: "0x", buyValue: "0.2" }],
      deployerAddress: "0xd",
      tipPayerAddress: null,
      creatorBuy: "0.1",
      tip: "0.001",
    });
    expect(rows).toEqual([
      { role: "deployer", address: "0xd", required: "0.1043" },
      { role: "bundle", address: "0xb", required: "0.2" },
    ]);
  });
});
