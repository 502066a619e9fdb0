import { CURVE_SUPPLY } from "@bundler/contracts";
import { parseEther, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UnsupportedTokenError } from "../errors.ts";
import { getTokenInfo } from "./getTokenInfo.ts";
import { startTradingTestChain, type TradingTestChain } from "./startTradingTestChain.ts";

let chain: TradingTestChain;
beforeAll(async () => {
  chain = await startTradingTestChain();
});
afterAll(async () => {
  await chain?.stop();
});

describe("getTokenInfo", () => {
  it("reads a fresh token's curve from the helper, field by field", async () => {
    const token = await chain.createToken();
    const info = await getTokenInfo(chain.client, { helper: chain.contracts.helper, token });
    expect(info).toMatchObject({
      version: 2n,
      tokenManager: chain.contracts.launchpad,
      quote: zeroAddress,
      tradingFeeRate: 100n,
      minTradingFee: parseEther("0.0001"),
      launchTime: 0n,
      offers: CURVE_SUPPLY,
      maxOffers: CURVE_SUPPLY,
      funds: 0n,
      maxFunds: parseEther("1"),
      liquidityAdded: false,
    });
    expect(info.lastPrice).toBeGreaterThan(0n);
  });

  it("refuses an address the launchpad did not create", async () => {
    const read = getTokenInfo(chain.client, {
      helper: chain.contracts.helper,
      token: chain.contracts.weth,
    });
    await expect(read).rejects.toThrow(UnsupportedTokenError);
    await expect(read).rejects.toThrow(
      `token ${chain.contracts.weth} cannot be traded here: the launchpad did not create it`,
    );
  });
});
