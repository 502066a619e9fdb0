import { LaunchpadManagerArtifact, tradingFee } from "@bundler/contracts";
import { type Address, isAddressEqual, zeroAddress } from "viem";
import { getBlock, readContract } from "viem/actions";
import { ChainError, UnsupportedTokenError } from "../errors.ts";
import { type GetTokenInfoReturnType, getTokenInfo } from "./getTokenInfo.ts";
import { kindRefusal } from "./getTokenKind.ts";
import type { AnyClient } from "./signedWrite.ts";

/** Where a token trades: on the launchpad's bonding curve, or on the DEX once it graduated. */
export type TradeRoute = "curve" | "dex";

/** A buy or sell priced the way it will execute. */
export interface TradeQuote {
  route: TradeRoute;
  /** BNB spent (buy) or tokens sold (sell, rounded down to whole gwei units on the curve). */
  amountIn: bigint;
  /** Tokens received (buy) or BNB received after the launchpad's fee (sell). */
  amountOut: bigint;
  /** The launchpad's trading fee in BNB; 0n on the DEX, whose LP fee is inside the price. */
  fee: bigint;
}

/**
 * Reads the token and says where it trades now, refusing tokens this code cannot trade:
 * TokenManager V1 tokens, tokens quoted in something other than BNB, and (when `launchpad`
 * is given) tokens of another launchpad and X Mode tokens (their template, read there).
 */
export const readTradeRoute = async (
  client: AnyClient,
  params: { helper: Address; token: Address; launchpad?: Address },
): Promise<{ info: GetTokenInfoReturnType; route: TradeRoute }> => {
  const { launchpad, token } = params;
  const [info, template] = await Promise.all([
    getTokenInfo(client, params),
    launchpad ? readTemplate(client, launchpad, token) : null,
  ]);
  return { info, route: routeOf(info, { ...params, template }) };
};

/** `_tokenInfos(token).template`, or null when the launchpad does not answer it. */
const readTemplate = (client: AnyClient, launchpad: Address, token: Address) =>
  readContract(client, {
    address: launchpad,
    abi: LaunchpadManagerArtifact.abi,
    functionName: "_tokenInfos",
    args: [token],
  }).then(
    (info) => info.template,
    () => null,
  );

/**
 * Where a token trades, from its state already read (and its template, when read); throws
 * UnsupportedTokenError as above, its reason in words.
 */
export const routeOf = (
  info: GetTokenInfoReturnType,
  {
    token,
    launchpad,
    template = null,
  }: { token: Address; launchpad?: Address; template?: bigint | null },
): TradeRoute => {
  const refusal = kindRefusal(info.version, template);
  if (refusal) throw new UnsupportedTokenError(token, refusal, "kind");
  if (info.version !== 2n)
    throw new UnsupportedTokenError(token, `it belongs to TokenManager V${info.version}`);
  if (!isAddressEqual(info.quote, zeroAddress))
    throw new UnsupportedTokenError(token, `it is quoted in ${info.quote}, not BNB`);
  if (launchpad && !isAddressEqual(info.tokenManager, launchpad))
    throw new UnsupportedTokenError(token, `it trades on ${info.tokenManager}, not ${launchpad}`);
  return info.liquidityAdded ? "dex" : "curve";
};

/**
 * What a curve sale pays the seller when its gross curve quote is `gross`: that less the
 * launchpad's fee on it (at least the minimum fee), 0n when the fee takes it all. A router
 * sale's `minFunds` is compared with the gross (four.meme's trade guide §4.2), so this is the
 * least a sale whose floor is `gross` hands the seller.
 */
export const netOfSellFee = (
  gross: bigint,
  fees: { tradingFeeRate: bigint; minTradingFee: bigint },
): bigint => {
  const fee = tradingFee(gross, fees.tradingFeeRate, fees.minTradingFee);
  return gross > fee ? gross - fee : 0n;
};

/** The least `amount` may become: `slippageBps` 500n allows 5% less. */
export const minimumAfterSlippage = (amount: bigint, slippageBps: bigint): bigint => {
  if (slippageBps > 10_000n) throw new ChainError("slippage cannot exceed 100%");
  return (amount * (10_000n - slippageBps)) / 10_000n;
};

/** A DEX swap deadline `seconds` after the latest block (chain time, not this machine's). */
export const swapDeadline = async (client: AnyClient, seconds = 120n): Promise<bigint> =>
  (await getBlock(client, { blockTag: "latest" })).timestamp + seconds;
