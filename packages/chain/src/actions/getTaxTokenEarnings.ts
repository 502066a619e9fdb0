import { TaxTokenArtifact } from "@bundler/contracts";
import type { Address } from "viem";
import { readContract } from "viem/actions";
import { type AnyClient, asChainError } from "./signedWrite.ts";

export interface GetTaxTokenEarningsReturnType {
  /** The tax on each DEX buy and sell, basis points (500 is 5%). */
  feeRate: bigint;
  /** The recipient of the founder's share (four.meme's `recipientAddress`). */
  recipient: Address;
  /** Quote (WBNB) sent to the recipient so far: TaxToken's `feeFounder`. */
  recipientEarned: bigint;
  /** Quote credited to holders so far: TaxToken's `feeHolder`. */
  holdersEarned: bigint;
}

/**
 * What a type-5 tax token's tax has paid out so far, from its public getters (four.meme's tax
 * guide §4): its rate, its recipient and what the recipient and the holders have earned.
 *
 * @example
 * const { recipient, recipientEarned } = await getTaxTokenEarnings(client, { token });
 */
export const getTaxTokenEarnings = async (
  client: AnyClient,
  { token }: { token: Address },
): Promise<GetTaxTokenEarningsReturnType> => {
  const read = <T>(functionName: "feeRate" | "founder" | "feeFounder" | "feeHolder") =>
    readContract(client, { address: token, abi: TaxTokenArtifact.abi, functionName }) as Promise<T>;
  try {
    const [feeRate, recipient, recipientEarned, holdersEarned] = await Promise.all([
      read<bigint>("feeRate"),
      read<Address>("founder"),
      read<bigint>("feeFounder"),
      read<bigint>("feeHolder"),
    ]);
    return { feeRate, recipient, recipientEarned, holdersEarned };
  } catch (error) {
    throw asChainError(error, "read the tax token's earnings");
  }
};
