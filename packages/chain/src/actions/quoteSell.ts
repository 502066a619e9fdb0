import { GWEI_UNIT, LaunchpadHelperArtifact } from "@bundler/contracts";
import type { Address } from "viem";
import { readContract } from "viem/actions";
import { ChainError, describeRevert } from "../errors.ts";
import { routerAbi } from "./routerAbi.ts";
import { type AnyClient, asChainError } from "./signedWrite.ts";
import { readTradeRoute, type TradeQuote, type TradeRoute } from "./tradeRoute.ts";

export interface QuoteSellParameters {
  helper: Address;
  /** The DEX router and WBNB: graduated tokens are priced on the token → WBNB pair. */
  router: Address;
  weth: Address;
  token: Address;
  /** Tokens to sell; on the curve only whole gwei units sell, so it is rounded down. */
  amount: bigint;
}

export type QuoteSellReturnType = TradeQuote;

/**
 * What selling `amount` tokens pays now, after the fee: the helper's `trySell` on the
 * curve (for `amount` rounded down to whole gwei units, as sellToken will sell), whose `funds`
 * is already net of the launchpad's fee (four.meme's trade guide §2.3; `fee` is beside it,
 * not to be taken off again), the router's `getAmountsOut` once the token graduated.
 *
 * @example
 * const { route, amountIn, amountOut, fee } = await quoteSell(client, { helper, router, weth, token, amount });
 */
export const quoteSell = async (
  client: AnyClient,
  params: QuoteSellParameters,
): Promise<QuoteSellReturnType> => {
  const { route } = await readTradeRoute(client, params);
  return quoteSellOn(client, route, params);
};

/** The launchpad reverts `GW` on amounts off the gwei grid: sell the whole units only. */
export const curveSellAmount = (amount: bigint): bigint => {
  const rounded = roundedCurveSell(amount);
  if (rounded <= 0n) throw new ChainError(GWEI_UNIT_SELL_HINT);
  return rounded;
};

/** `amount` rounded down to whole gwei units (0n when less than one). */
export const roundedCurveSell = (amount: bigint): bigint => amount - (amount % GWEI_UNIT);

export const GWEI_UNIT_SELL_HINT = `sell: ${describeRevert("ZA")} once rounded down to whole gwei units`;

/** quoteSell on a route already read (sellToken reads it once for both). */
export const quoteSellOn = async (
  client: AnyClient,
  route: TradeRoute,
  { helper, router, weth, token, amount }: QuoteSellParameters,
): Promise<QuoteSellReturnType> => {
  try {
    if (route === "dex") {
      const amounts = await readContract(client, {
        address: router,
        abi: routerAbi,
        functionName: "getAmountsOut",
        args: [amount, [token, weth]],
      });
      return { route, amountIn: amount, amountOut: amounts[1] ?? 0n, fee: 0n };
    }
    const amountIn = curveSellAmount(amount);
    const [, , funds, fee] = await readContract(client, {
      address: helper,
      abi: LaunchpadHelperArtifact.abi,
      functionName: "trySell",
      args: [token, amountIn],
    });
    return { route, amountIn, amountOut: funds, fee };
  } catch (error) {
    throw asChainError(error, "quote sell");
  }
};
