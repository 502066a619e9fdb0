import { type Client, parseAbi } from "viem";
import { readContract } from "viem/actions";
import { ChainError } from "../errors.ts";
import type { ChainProfile } from "../profiles.ts";

const aggregatorAbi = parseAbi([
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
]);

/** Chainlink's BNB/USD feed on BSC answers with 8 decimals and at least once a day. */
const FEED_DECIMALS = 8;
export const MAX_PRICE_AGE_SECONDS = 86_400;

/**
 * A Chainlink round as a USD price, refused when it cannot be trusted: a price at or below
 * zero, or a round older than `maxAgeSeconds` (the feed stalled).
 */
export const priceFromRound = (
  round: { answer: bigint; updatedAt: bigint },
  nowSeconds: number,
  maxAgeSeconds = MAX_PRICE_AGE_SECONDS,
): number => {
  if (round.answer <= 0n)
    throw new ChainError(`the BNB/USD feed answered ${round.answer}, not a price`);
  const age = nowSeconds - Number(round.updatedAt);
  if (age > maxAgeSeconds)
    throw new ChainError(`the BNB/USD feed is stale: its last round is ${age} s old`);
  return Number(round.answer) / 10 ** FEED_DECIMALS;
};

/**
 * The BNB price in USD: Chainlink's BNB/USD feed on BSC (checked for sign and staleness),
 * a fixed number elsewhere.
 *
 * @example
 * const usd = await getBnbPrice(client, { profile: profiles.bsc });
 */
export const getBnbPrice = async (
  client: Client,
  { profile }: { profile: ChainProfile },
): Promise<number> => {
  if (profile.bnbPrice.kind === "fixed") return profile.bnbPrice.usd;
  const [, answer, , updatedAt] = await readContract(client, {
    address: profile.bnbPrice.aggregator,
    abi: aggregatorAbi,
    functionName: "latestRoundData",
  });
  return priceFromRound({ answer, updatedAt }, Math.floor(Date.now() / 1000));
};
