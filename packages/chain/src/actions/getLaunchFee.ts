import { LaunchpadManagerArtifact } from "@bundler/contracts";
import type { Address } from "viem";
import { readContract } from "viem/actions";
import { type AnyClient, asChainError } from "./signedWrite.ts";

export interface GetLaunchFeeParameters {
  /** A launchpad that exposes `launchFee()`: the local one. */
  launchpad: Address;
}

/**
 * The creation fee `createToken` expects on top of the creator's pre-sale, as the
 * launchpad itself says (`launchFee()`). Only our local launchpad exposes it; on BSC the
 * fee comes from four.meme's API config.
 *
 * @example
 * const launchFee = await getLaunchFee(client, { launchpad });
 */
export const getLaunchFee = async (
  client: AnyClient,
  { launchpad }: GetLaunchFeeParameters,
): Promise<bigint> => {
  try {
    return await readContract(client, {
      address: launchpad,
      abi: LaunchpadManagerArtifact.abi,
      functionName: "launchFee",
    });
  } catch (error) {
    throw asChainError(error, "read the launch fee");
  }
};
