import type { ChainContext } from "../../lib/chain-context.ts";
import type { LaunchCosts } from "./launch-plan.ts";

/** A bundle's size when no builder says otherwise. */
const DEFAULT_MAX_TXS = 50;

/** The gas price a launch signs with: the node's, never below the profile's floor. */
export const launchGasPrice = async (chain: ChainContext): Promise<bigint> => {
  const price = await chain.client.getGasPrice();
  if (price < chain.profile.gasPriceFloor) return chain.profile.gasPriceFloor;
  return price;
};

/**
 * What a launch on this chain costs besides its buys, read now: the gas price, and the
 * launchpad's `_launchFee()` and `_tradingFeeRate()` (the create sends the fee and the rate's
 * share of the creator's buy on top of it). four.meme's API config is not asked: its
 * `deployCost` is only checked against the launchpad when a launch runs.
 */
export const readLaunchCosts = async (chain: ChainContext): Promise<LaunchCosts> => {
  const [gasPrice, fees] = await Promise.all([launchGasPrice(chain), chain.launchFees()]);
  return {
    gasPrice,
    creationFee: fees.launchFee,
    maxTxsPerBundle:
      chain.builders.length > 0
        ? Math.max(...chain.builders.map((b) => b.maxTxs))
        : DEFAULT_MAX_TXS,
    curve: { ...chain.curve, tradingFeeRate: fees.tradingFeeRate },
  };
};
