import { DEFAULT_MIN_TRADING_FEE, DEFAULT_TRADING_FEE_RATE } from "@bundler/contracts";
import type { BumperCosts } from "@bundler/shared";
import { formatEther } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";

/**
 * The most gas one bump may burn: the engine signs its buy, approval and sell with the
 * simulation's gas plus 20% and 50,000 each (about 500,000 together on the curve and on the
 * DEX), and pays two plain transfers of 21,000 (the builder's tip, the move to the next
 * wallet). Rounded up, so the plan never asks for less than a bump may take.
 */
export const BUMP_GAS = 700_000n;

/**
 * The plan's gas is rounded up to this (0.0001 BNB, the screen's last decimal): the amount to
 * send stays the same from one block to the next while the gas price moves a little.
 */
export const GAS_ROUNDING_WEI = 10n ** 14n;

/** The node's gas price, at least the profile's floor (what the engine signs at), per block. */
export const bumperGasPrice = (chain: ChainContext): Promise<bigint> =>
  chain.reads.once("bumper:gas-price", async () => {
    const price = await chain.client.getGasPrice();
    const floor = chain.profile.gasPriceFloor;
    if (price < floor) return floor;
    return price;
  });

const roundUp = (wei: bigint, unit: bigint) => ((wei + unit - 1n) / unit) * unit;

/**
 * What each bump costs besides its buy, as this server runs bumps now: `tip` to the builder,
 * `BUMP_GAS` at today's gas price (rounded up to 0.0001 BNB), and the launchpad's trading fee (1%, at least 0.0001 BNB a
 * trade; the DEX's fee after graduation is lower).
 */
export const bumperCosts = async (chain: ChainContext, tip: bigint): Promise<BumperCosts> => ({
  tip: formatEther(tip),
  gas: formatEther(roundUp(BUMP_GAS * (await bumperGasPrice(chain)), GAS_ROUNDING_WEI)),
  tradingFeeBps: Number(DEFAULT_TRADING_FEE_RATE),
  minTradingFee: formatEther(DEFAULT_MIN_TRADING_FEE),
});
