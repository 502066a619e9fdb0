import { describe, expect, it } from "vitest";
import { summarizeLaunch } from "./launch-summary.ts";

describe("launch summary", () => {
  it("totals buys, creator buy, tip, gas and fee exactly", () => {
    const summary = summarizeLaunch({
      wallets: [
        { address: "0xa", privateKey: "0x", buyValue: "0.1", tokenAmount: `1${"0".repeat(25)}` },
        { address: "0xb", privateKey: "0x", buyValue: "0.2", tokenAmount: `2${"0".repeat(25)}` },
      ],
      creatorBuy: "0.25",
      tip: "0.001",
    });
    expect(summary.bundleBuys).toBe("0.3");
    // create 0.003 + 3 buys × 0.0003
    expect(summary.gasEstimate).toBe("0.0039");
    expect(summary.total).toBe("1.0549");
    expect(summary.rows[0]?.sharePercent).toBeCloseTo(1);
    expect(summary.bundleSharePercent).toBeCloseTo(3);
  });

  it("has no bundle share when a quote is missing", () => {
    const summary = summarizeLaunch({
      wallets: [{ address: "0xa", privateKey: "0x", buyValue: "0.1" }],
      creatorBuy: "",
      tip: "0.001",
    });
    expect(summary.bundleSharePercent).toBeNull();
    expect(summary.gasEstimate).toBe("0.0033");
  });
});
