import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import {
  buildersFor,
  explorerTxUrl,
  NODEREAL_TIP_ADDRESS,
  profiles,
  tokenPageUrl,
} from "./profiles.ts";

describe("chain profiles", () => {
  it("never give the local chain BSC's or BSC testnet's chain id", () => {
    expect([56, 97]).not.toContain(profiles.local.chainId);
  });

  it("link transactions to the explorer on BSC and to nothing locally", () => {
    expect(explorerTxUrl(profiles.bsc, "0xabc")).toBe("https://bscscan.com/tx/0xabc");
    expect(explorerTxUrl(profiles.local, "0xabc")).toBeNull();
  });

  it("link a token to four.meme and PancakeSwap on BSC, and to the wallet manager locally", () => {
    const token = "0x4444444444444444444444444444444444444444";
    expect(tokenPageUrl(profiles.bsc, "launchpad", token)).toBe(`https://four.meme/token/${token}`);
    expect(tokenPageUrl(profiles.bsc, "dex", token)).toBe(
      `https://pancakeswap.finance/swap?outputCurrency=${token}`,
    );
    expect(tokenPageUrl(profiles.local, "launchpad", token)).toBeNull();
    expect(tokenPageUrl(profiles.local, "dex", token)).toBe(`/wallets/${token}`);
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

describe("buildersFor", () => {
  const caps = (builders: ReturnType<typeof buildersFor>) =>
    Object.fromEntries(builders.map((b) => [b.name, b.maxTxs]));

  it("caps 48 Club at the 5 transactions it takes from unsigned guests", () => {
    expect(caps(buildersFor(profiles.bsc))).toEqual({ "48club": 5, blockrazor: 50 });
  });

  it("adds NodeReal only when its keyed URL is configured, tipping the system address", () => {
    const url = "https://bsc-mainnet.nodereal.io/v1/key";
    const nodereal = buildersFor(profiles.bsc, { nodeRealUrl: url }).find(
      (b) => b.name === "nodereal",
    );
    expect(nodereal).toEqual({
      name: "nodereal",
      url,
      tipAddress: NODEREAL_TIP_ADDRESS,
      maxTxs: 50,
    });
  });

  it("sets each builder's cap for the configured tier", () => {
    const builders = buildersFor(profiles.bsc, {
      nodeRealUrl: "https://bsc-mainnet.nodereal.io/v1/key",
      maxTxs: { blockrazor: 15, nodereal: 20, "48club": 3 },
    });
    expect(caps(builders)).toEqual({ "48club": 3, blockrazor: 15, nodereal: 20 });
  });

  it("takes a builder's own endpoint, key and gas price floor, by name", () => {
    const [fortyEight, blockrazor] = buildersFor(profiles.bsc, {
      urls: { blockrazor: "https://frankfurt.builder.blockrazor.io" },
      authorization: { blockrazor: "key-1" },
      minGasPrice: { "48club": 100_000_000n },
    });
    expect(blockrazor).toMatchObject({
      url: "https://frankfurt.builder.blockrazor.io",
      authorization: "key-1",
    });
    expect(blockrazor?.minGasPrice).toBeUndefined();
    expect(fortyEight).toMatchObject({ minGasPrice: 100_000_000n });
    expect(fortyEight?.authorization).toBeUndefined();
  });

  it("refuses an endpoint, key or floor for a builder the network does not have", () => {
    for (const options of [
      { urls: { nodereal: "https://x" } },
      { authorization: { nodereal: "k" } },
      { minGasPrice: { nodereal: 1n } },
    ])
      expect(() => buildersFor(profiles.bsc, options)).toThrow(
        'no builder "nodereal" on bsc (builders: 48club, blockrazor)',
      );
  });

  it("refuses a cap for an unknown builder, one below 3, and 48 Club above 5", () => {
    expect(() => buildersFor(profiles.bsc, { maxTxs: { nodereal: 50 } })).toThrow(
      'no builder "nodereal" on bsc (builders: 48club, blockrazor)',
    );
    expect(() => buildersFor(profiles.bsc, { maxTxs: { blockrazor: 2 } })).toThrow(
      "blockrazor's cap must be a whole number of at least 3 transactions",
    );
    expect(() => buildersFor(profiles.bsc, { maxTxs: { "48club": 50 } })).toThrow(
      "48club takes at most 5 transactions from a bundle not signed with 48spSign, and no 48 Soul Point key is configured",
    );
  });

  const member = privateKeyToAccount(generatePrivateKey());

  it("gives 48 Club the 48 Soul Point key, and a signed guest's 6 transactions when no tier is declared", () => {
    const [fortyEight, blockrazor] = buildersFor(profiles.bsc, { fortyEightSpSigner: member });
    expect(fortyEight).toMatchObject({ name: "48club", maxTxs: 6, signer: member });
    expect(blockrazor?.signer).toBeUndefined();
  });

  it("takes each declared 48 Soul Point tier with a key, and refuses any other cap", () => {
    for (const cap of [6, 10, 15, 50])
      expect(
        caps(buildersFor(profiles.bsc, { fortyEightSpSigner: member, maxTxs: { "48club": cap } })),
      ).toMatchObject({ "48club": cap });
    for (const cap of [5, 7, 48])
      expect(() =>
        buildersFor(profiles.bsc, { fortyEightSpSigner: member, maxTxs: { "48club": cap } }),
      ).toThrow(
        `48club's cap for signed bundles is its 48 Soul Point tier's: 6, 10, 15, 50 (not ${cap})`,
      );
  });

  it("refuses a 48 Soul Point key on a network without 48 Club", () => {
    expect(() => buildersFor(profiles["bsc-testnet"], { fortyEightSpSigner: member })).toThrow(
      'no builder "48club" on bsc-testnet (builders: none)',
    );
  });
});
