import { LaunchpadManagerArtifact } from "@bundler/contracts";
import type { Address } from "viem";
import { readContract } from "viem/actions";
import { type AnyClient, asChainError } from "./signedWrite.ts";

export interface GetLaunchFeesParameters {
  /** TokenManager2 (or the local launchpad). */
  launchpad: Address;
}

export interface GetLaunchFeesReturnType {
  /** `_launchFee()`: the creation fee, wei. */
  launchFee: bigint;
  /** `_tradingFeeRate()`: basis points, charged on the creator's pre-sale on top of it. */
  tradingFeeRate: bigint;
}

/**
 * What `createToken`'s value is made of, as the launchpad says it now: `_launchFee()` and
 * `_tradingFeeRate()` (four.meme's create guide §4; its CLI's create-token-api.ts reads the
 * same two). Send `createTokenValue({ ...fees, preSale })`.
 *
 * @example
 * const { launchFee, tradingFeeRate } = await getLaunchFees(client, { launchpad });
 */
export const getLaunchFees = async (
  client: AnyClient,
  { launchpad }: GetLaunchFeesParameters,
): Promise<GetLaunchFeesReturnType> => {
  const read = (functionName: "_launchFee" | "_tradingFeeRate") =>
    readContract(client, { address: launchpad, abi: LaunchpadManagerArtifact.abi, functionName });
  try {
    const [launchFee, tradingFeeRate] = await Promise.all([
      read("_launchFee"),
      read("_tradingFeeRate"),
    ]);
    return { launchFee, tradingFeeRate };
  } catch (error) {
    throw asChainError(error, "read the launch fee and trading fee rate");
  }
};
