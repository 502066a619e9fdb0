import { keccak256, parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { BundleRejectedError, InsufficientFundsError, SimulationRevertError } from "../errors.ts";
import { DEFAULT_FEE, useLaunchTokenTestbed } from "./launchToken.test-support.ts";
import { launchToken } from "./launchToken.ts";

// Launches refused before anything lands: by the simulation, the balance checks or a builder.
const ctx = useLaunchTokenTestbed();
const { setBalance, builder, recording, setTradingFee, prepare, hashesInBlocks } = ctx;

describe("launchToken", () => {
  it("refuses before sending anything when the simulation says a buy would revert", async () => {
    // The first buy fills the curve; the second would find trading closed.
    const params = await prepare(2, () => parseEther("0.5"));
    const [filler, late] = params.buyers;
    if (!filler || !late) throw new Error("no buyers");
    filler.funds = parseEther("30");
    await setBalance(filler.account.address, parseEther("31"));
    const launch = launchToken({ ...params, builders: [await builder(50)] });
    await expect(launch).rejects.toThrow(SimulationRevertError);
    await expect(launch).rejects.toThrow(
      `simulation: the buy by wallet ${late.account.address} would revert: TO: trading is closed`,
    );
    expect(await ctx.client.getTransactionCount({ address: params.creator.address })).toBe(0);
  });

  it("leaves no block with any transaction of a bundle in which one buy reverts, naming it", async () => {
    // Between pricing and inclusion the launchpad raises its minimum fee: the one small buy
    // now only covers the fee (ZA); the large ones are unaffected.
    const params = await prepare(4, (i) => (i === 2 ? parseEther("0.0015") : parseEther("0.5")));
    const victim = params.buyers[2];
    if (!victim) throw new Error("no victim");
    const recorder = await recording(await builder(50));
    const before = await ctx.client.getBlockNumber();
    try {
      const launch = launchToken({
        ...params,
        builders: [recorder.endpoint],
        onStep: async (message) => {
          if (message.startsWith("PASSED balance check"))
            await setTradingFee(100n, parseEther("0.002"));
        },
      });
      await expect(launch).rejects.toThrow(BundleRejectedError);
      await expect(launch).rejects.toThrow(
        `builder dev refused: the buy by wallet ${victim.account.address} would revert: ZA: the amount is zero`,
      );
    } finally {
      await setTradingFee(...DEFAULT_FEE);
    }
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const after = await ctx.client.getBlockNumber();
    expect(after).toBeGreaterThan(before + 1n);
    const sent = recorder.bundles.flat().map((raw) => keccak256(raw).toLowerCase());
    expect(sent).toHaveLength(6);
    const landed = await hashesInBlocks(before, after);
    expect(sent.filter((hash) => landed.includes(hash))).toEqual([]);
  });

  it("names the wallet and the reason when a builder refuses a buy that would revert", async () => {
    const params = await prepare(3, () => parseEther("0.01"));
    // Every buy demands 10% more tokens than the simulation gives: the first one reverts.
    const launch = launchToken({ ...params, slippageBps: -1000n, builders: [await builder(50)] });
    await expect(launch).rejects.toThrow(
      `builder dev refused: the buy by wallet ${params.buyers[0]?.account.address} would revert: Slippage: the price moved past the slippage limit`,
    );
    expect(await ctx.client.getTransactionCount({ address: params.creator.address })).toBe(0);
  });

  it("refuses before sending anything when a wallet is short, naming the shortfall", async () => {
    const params = await prepare(3, () => parseEther("0.01"));
    const victim = params.buyers[1];
    if (!victim) throw new Error("no buyer");
    await setBalance(victim.account.address, 0n);
    const launch = launchToken({ ...params, builders: [await builder(50)] });
    await expect(launch).rejects.toThrow(InsufficientFundsError);
    // Its 0.01 BNB buy plus the gas of that buy.
    await expect(launch).rejects.toThrow(
      new RegExp(`wallet ${victim.account.address} needs 0\\.010\\d+ BNB more$`),
    );
    expect(await ctx.client.getTransactionCount({ address: params.creator.address })).toBe(0);
  });

  it("names an unfunded deployer and its shortfall instead of failing to estimate", async () => {
    const params = await prepare(1, () => parseEther("0.01"));
    await setBalance(params.creator.address, 0n);
    await expect(launchToken({ ...params, builders: [await builder(50)] })).rejects.toThrow(
      new RegExp(`wallet ${params.creator.address} needs 0\\.11\\d* BNB more`),
    );
  });

  it("reports a bundle refused by the builder with the builder's reason", async () => {
    const params = await prepare(2, () => parseEther("0.01"));
    await expect(
      launchToken({ ...params, tip: parseEther("0.0001"), builders: [await builder(50)] }),
    ).rejects.toThrow(/^builder dev refused: bundle tip too low/);
    expect(await ctx.client.getTransactionCount({ address: params.creator.address })).toBe(0);
  });
});
