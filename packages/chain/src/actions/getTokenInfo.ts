import { LaunchpadHelperArtifact } from "@bundler/contracts";
import type { Address } from "viem";
import { readContract } from "viem/actions";
import { UnsupportedTokenError } from "../errors.ts";
import { type AnyClient, asChainError } from "./signedWrite.ts";

export interface GetTokenInfoParameters {
  /** TokenManagerHelper3 (or the local LaunchpadHelper). */
  helper: Address;
  token: Address;
}

/** TokenManagerHelper3's `getTokenInfo` tuple, by name. */
export interface GetTokenInfoReturnType {
  /** 1: TokenManager V1 token; 2: TokenManager2 token. */
  version: bigint;
  /** Where the token's curve trades go. */
  tokenManager: Address;
  /** The zero address when the token trades against BNB. */
  quote: Address;
  /** Marginal price, wei per whole token. */
  lastPrice: bigint;
  /** Basis points: 100n is 1%. */
  tradingFeeRate: bigint;
  minTradingFee: bigint;
  launchTime: bigint;
  /** Tokens still on the curve. */
  offers: bigint;
  maxOffers: bigint;
  /** BNB raised so far. */
  funds: bigint;
  /** BNB that fills the curve (the graduation size). */
  maxFunds: bigint;
  /** True once the token graduated: it trades on the DEX, no longer on the curve. */
  liquidityAdded: boolean;
}

/**
 * A launchpad token's state from the helper, in one `eth_call`. Throws
 * UnsupportedTokenError for a token the launchpad did not create (version 0).
 *
 * @example
 * const info = await getTokenInfo(client, { helper, token });
 * const route = info.liquidityAdded ? "dex" : "curve";
 */
export const getTokenInfo = async (
  client: AnyClient,
  { helper, token }: GetTokenInfoParameters,
): Promise<GetTokenInfoReturnType> => {
  const tuple = await readContract(client, {
    address: helper,
    abi: LaunchpadHelperArtifact.abi,
    functionName: "getTokenInfo",
    args: [token],
  }).catch((error: unknown) => {
    throw asChainError(error, "token info");
  });
  const info = tokenInfoOf(tuple);
  if (info.version === 0n)
    throw new UnsupportedTokenError(token, "the launchpad did not create it", "unknown");
  return info;
};

/** getTokenInfo's answer, by name (version 0n: the launchpad did not create the token). */
export const tokenInfoOf = (
  tuple: readonly [
    bigint,
    Address,
    Address,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    boolean,
  ],
): GetTokenInfoReturnType => {
  const [version, tokenManager, quote, lastPrice, tradingFeeRate, minTradingFee] = tuple;
  const [, , , , , , launchTime, offers, maxOffers, funds, maxFunds, liquidityAdded] = tuple;
  return {
    version,
    tokenManager,
    quote,
    lastPrice,
    tradingFeeRate,
    minTradingFee,
    launchTime,
    offers,
    maxOffers,
    funds,
    maxFunds,
    liquidityAdded,
  };
};
