import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { parseEnv } from "../config/env.ts";
import { openChain } from "./open-chain.ts";

const KEY = `0x${"4a".repeat(32)}` as const;
const bsc = {
  CHAIN: "bsc",
  RPC_URL: "http://127.0.0.1:1",
  TREASURY_ADDRESS: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  MASTER_KEY: "ab".repeat(32),
};
// A remote chain is opened without a request: the builders are settled from the environment.
const open = (env: Record<string, string>) =>
  openChain(parseEnv(env), {
    dataDir: "/nonexistent",
    masterKey: Buffer.alloc(32),
    databaseExisted: false,
    say: () => {},
  });

describe("openChain's builders off the local chain", () => {
  it("signs 48 Club's bundles with the 48 Soul Point key, at the declared tier", async () => {
    const { chain } = await open({ ...bsc, FORTY_EIGHT_SP_KEY: KEY, BUILDER_MAX_TXS: "48club=15" });
    const [fortyEight, blockrazor] = chain.builders;
    expect(fortyEight).toMatchObject({ name: "48club", maxTxs: 15 });
    expect(fortyEight?.signer?.address).toBe(privateKeyToAccount(KEY).address);
    expect(blockrazor?.signer).toBeUndefined();
  });

  it("refuses to start when no builder can take a create, a buy and a tip, naming each one's cap and floor", async () => {
    await expect(open({ ...bsc, BUILDER_MIN_GAS_GWEI: "48club=1,blockrazor=0.1" })).rejects.toThrow(
      "no configured builder can take a launch (the create, one buy and a tip: 3 transactions, at the chain's gas price floor of 0.05 gwei): 48club takes 5 transactions at 1 gwei or more; blockrazor takes 50 transactions at 0.1 gwei or more (raise a cap with BUILDER_MAX_TXS or lower a floor with BUILDER_MIN_GAS_GWEI)",
    );
  });

  it("starts when one builder's floor is the chain's", async () => {
    const { chain } = await open({ ...bsc, BUILDER_MIN_GAS_GWEI: "48club=1,blockrazor=0.05" });
    expect(chain.builders).toHaveLength(2);
  });

  it("leaves a network without builders (BSC testnet) to the preflight", async () => {
    const { chain } = await open({ ...bsc, CHAIN: "bsc-testnet" });
    expect(chain.builders).toEqual([]);
  });
});
