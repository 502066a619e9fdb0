import { LaunchpadHelperArtifact } from "@bundler/contracts";
import type { Address } from "viem";
import { readContract } from "viem/actions";
import { routerAbi } from "./routerAbi.ts";
import { type AnyClient, asChainError } from "./signedWrite.ts";
import { readTradeRoute, type TradeQuote, type TradeRoute } from "./tradeRoute.ts";

export interface QuoteBuyParameters {
  helper: Address;
  /** The DEX router and WBNB: graduated tokens are priced on the WBNB → token pair. */
  router: Address;
  weth: Address;
  token: Address;
  /** BNB to spend, fee included. */
  funds: bigint;
}

export type QuoteBuyReturnType = TradeQuote & {
  /** BNB to send with the buy: the helper's `amountMsgValue` on the curve. */
  msgValue: bigint;
  /** The `funds` argument of `buyTokenAMAP`: the helper's `amountFunds` on the curve. */
  funds: bigint;
};

/**
 * What spending `funds` BNB on `token` buys now: the helper's `tryBuy` on the curve, the
 * router's `getAmountsOut` once the token graduated.
 *
 * @example
 * const { route, amountOut, fee } = await quoteBuy(client, { helper, router, weth, token, funds: parseEther("0.1") });
 */
export const quoteBuy = async (
  client: AnyClient,
  params: QuoteBuyParameters,
): Promise<QuoteBuyReturnType> => {
  const { route } = await readTradeRoute(client, params);
  return quoteBuyOn(client, route, params);
};

/** quoteBuy on a route already read (buyToken reads it once for both). */
export const quoteBuyOn = async (
  client: AnyClient,
  route: TradeRoute,
  { helper, router, weth, token, funds }: QuoteBuyParameters,
): Promise<QuoteBuyReturnType> => {
  try {
    if (route === "dex") {
      const amounts = await readContract(client, {
        address: router,
        abi: routerAbi,
        functionName: "getAmountsOut",
        args: [funds, [weth, token]],
      });
      return {
        route,
        amountIn: funds,
        amountOut: amounts[1] ?? 0n,
        fee: 0n,
        msgValue: funds,
        funds,
      };
    }
    const [, , amount, cost, fee, msgValue, , amountFunds] = await readContract(client, {
      address: helper,
      abi: LaunchpadHelperArtifact.abi,
      functionName: "tryBuy",
      args: [token, 0n, funds],
    });
    // A buy that fills the curve spends cost + fee and gets the rest of `funds` back.
    // Send what the helper says: four.meme's fee plans can ask for other than `funds`.
    return { route, amountIn: cost + fee, amountOut: amount, fee, msgValue, funds: amountFunds };
  } catch (error) {
    throw asChainError(error, "quote buy");
  }
};
