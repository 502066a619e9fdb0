import { describe, expect, it } from "vitest";
import { explorerTxUrl, profiles } from "./profiles.ts";

describe("chain profiles", () => {
  it("never give the local chain BSC's or BSC testnet's chain id", () => {
    expect([56, 97]).not.toContain(profiles.local.chainId);
  });

  it("link transactions to the explorer on BSC and to nothing locally", () => {
    expect(explorerTxUrl(profiles.bsc, "0xabc")).toBe("https://bscscan.com/tx/0xabc");
    expect(explorerTxUrl(profiles.local, "0xabc")).toBeNull();
  });

  it("point BSC at four.meme's TokenManager2 and Helper3", () => {
    expect(profiles.bsc.launchpad).toEqual({
      tokenManager: "0x5c952063c7fc8610FFDB798152D69F0B9550762b",
      helper: "0xF251F83e40a78868FcfA3FA4599Dad6494E46034",
    });
  });

  it("give every builder a tip address and a cap", () => {
    for (const builder of profiles.bsc.builders) {
      expect(builder.tipAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(builder.maxTxs).toBeGreaterThan(2);
    }
  });
});
