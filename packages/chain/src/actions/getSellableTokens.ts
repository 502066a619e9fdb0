import { type Address, type Client, decodeFunctionResult, encodeFunctionData } from "viem";
import { aggregate3 } from "./aggregate3.ts";
import { roundedCurveSell } from "./quoteSell.ts";
import { routerAbi } from "./routerAbi.ts";
import type { TradeRoute } from "./tradeRoute.ts";

export interface GetSellableTokensParameters {
  /** Where the token trades now (`routeOf` the token's info). */
  route: TradeRoute;
  /** The DEX router and WBNB: a graduated token's sale is priced on the token → WBNB pair. */
  router: Address;
  weth: Address;
  token: Address;
  /** Each wallet's tokens. */
  holdings: ReadonlyArray<{ address: Address; token: bigint }>;
}

/** Per holding, in order: the tokens a sale of all of them takes, 0n when they are dust. */
export type GetSellableTokensReturnType = bigint[];

/**
 * How many of each wallet's tokens a sale of everything it holds can take; 0n for a wallet
 * holding none or only dust, which no sale can take and a caller must not try to sell. On
 * the curve the launchpad sells whole gwei units only (`GW`: the remainder under 10^9 wei
 * stays), so no RPC request; on the DEX the pair refuses a swap that pays nothing, so an
 * amount the router prices at 0 BNB is dust: one multicall for every wallet that holds any.
 *
 * @example
 * const [sellable] = await getSellableTokens(client, { route, router, weth, token, holdings });
 * if (sellable === 0n) // nothing to sell: only dust, if anything
 */
export const getSellableTokens = async (
  client: Client,
  { route, router, weth, token, holdings }: GetSellableTokensParameters,
): Promise<GetSellableTokensReturnType> => {
  if (route === "curve") return holdings.map((h) => roundedCurveSell(h.token));
  const holders = holdings.filter((h) => h.token > 0n);
  const results = await aggregate3(
    client,
    holders.map((h) => ({
      target: router,
      callData: encodeFunctionData({
        abi: routerAbi,
        functionName: "getAmountsOut",
        args: [h.token, [token, weth]],
      }),
      allowFailure: true,
    })),
    { what: "sale quotes" },
  );
  const pays = new Map<Address, boolean>();
  for (const [i, h] of holders.entries()) {
    const result = results[i];
    // A quote the router refused says nothing about dust: the sale will say why it fails.
    if (!result?.success) {
      pays.set(h.address, true);
      continue;
    }
    const amounts = decodeFunctionResult({
      abi: routerAbi,
      functionName: "getAmountsOut",
      data: result.returnData,
    });
    pays.set(h.address, (amounts.at(-1) ?? 0n) > 0n);
  }
  return holdings.map((h) => (h.token > 0n && pays.get(h.address) ? h.token : 0n));
};
