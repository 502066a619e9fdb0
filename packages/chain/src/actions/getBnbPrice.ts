import { type Client, parseAbi } from "viem";
import { readContract } from "viem/actions";
import type { ChainProfile } from "../profiles.ts";

const aggregatorAbi = parseAbi([
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
]);

/**
 * The BNB price in USD: Chainlink's BNB/USD feed on BSC (8 decimals), a fixed
 * number on the local chain.
 *
 * @example
 * const usd = await getBnbPrice(client, { profile: profiles.bsc });
 */
export const getBnbPrice = async (
  client: Client,
  { profile }: { profile: ChainProfile },
): Promise<number> => {
  if (profile.bnbPrice.kind === "fixed") return profile.bnbPrice.usd;
  const [, answer] = await readContract(client, {
    address: profile.bnbPrice.aggregator,
    abi: aggregatorAbi,
    functionName: "latestRoundData",
  });
  return Number(answer) / 1e8;
};
