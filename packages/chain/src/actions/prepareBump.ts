import { LaunchpadManagerArtifact, TaxTokenArtifact } from "@bundler/contracts";
import {
  type Address,
  decodeEventLog,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  isAddressEqual,
  maxUint256,
} from "viem";
import { readContract } from "viem/actions";
import { ChainError, InsufficientFundsError, SimulationRevertError } from "../errors.ts";
import { buyCall } from "./buyToken.ts";
import { getTokenHoldings } from "./getTokenHoldings.ts";
import { creatorTypeOf, isTaxTemplate } from "./getTokenKind.ts";
import { routerPayout, saleCallData } from "./prepareSells.ts";
import { quoteBuyOn } from "./quoteBuy.ts";
import { roundedCurveSell } from "./quoteSell.ts";
import { routerAbi } from "./routerAbi.ts";
import type { AnyClient } from "./signedWrite.ts";
import { withMargin } from "./signedWrite.ts";
import { peakGasOf, revertOf, simulateCalls } from "./simulation.ts";
import { routeOf, type TradeRoute } from "./tradeRoute.ts";

export interface PrepareBumpParameters {
  /** The wallet that buys and sells. */
  wallet: Address;
  launchpad: Address;
  helper: Address;
  router: Address;
  weth: Address;
  token: Address;
  /** BNB the buy spends, fee included. */
  funds: bigint;
  gasPrice: bigint;
  /** BNB the wallet also pays on top of the calls (a builder's tip), counted in the funding check. */
  extraCost?: bigint;
}

/** One call of the bump, to sign at consecutive nonces in this order. */
export interface BumpCall {
  role: "buy" | "approve" | "sell";
  request: { to: Address; value: bigint; data: Hex };
  gas: bigint;
}

export interface PrepareBumpReturnType {
  route: TradeRoute;
  /** Buy, approval (only when the spender may not spend the tokens yet), sell. */
  calls: BumpCall[];
  /** Tokens bought, and sold straight after (whole gwei units on the curve). */
  tokens: bigint;
  /** BNB the buy spends, and what the sell returns after the fee, in the simulated block. */
  spent: bigint;
  returned: bigint;
  /** The most the calls' gas may cost at `gasPrice`. */
  gasCost: bigint;
  /** The wallet's BNB when read. */
  balance: bigint;
}

/**
 * A bump: buy `funds` of `token` and sell every token bought, landing together in one block
 * (a bundle), so the wallet ends holding BNB again. Priced and checked by one `eth_simulateV1`
 * run of buy, approval and sell in landing order; the buy demands at least the tokens the sell
 * sells, so if anything lands before it and moves the price, the bundle reverts whole instead
 * of leaving tokens behind. Throws InsufficientFundsError when the wallet cannot pay, or
 * SimulationRevertError with the reason, before anything is signed.
 */
export const prepareBump = async (
  client: AnyClient,
  params: PrepareBumpParameters,
): Promise<PrepareBumpReturnType> => {
  const { wallet, launchpad, router, weth, token, funds, gasPrice } = params;
  const holdings = await getTokenHoldings(client, {
    token,
    addresses: [wallet],
    helper: params.helper,
    launchpad,
    spenders: [launchpad, router],
  });
  if (!holdings.info) throw new ChainError(`token ${token} is not one of the launchpad's`);
  const route = routeOf(holdings.info, { token, launchpad, template: holdings.template });
  const held = holdings.holdings[0];
  const quote = await quoteBuyOn(client, route, { ...params });
  // A tax token's DEX buy hands the wallet the pair's amount less its tax (tax guide §4).
  const taxed = route === "dex" && isTaxTemplate(holdings.template);
  if (taxed && creatorTypeOf(holdings.template ?? 0n) !== 5n)
    throw new ChainError(
      `token ${token} is a TaxToken8/9, whose DEX tax this app does not price: bump it on the curve only`,
    );
  const tax = taxed
    ? (quote.amountOut *
        (await readContract(client, {
          address: token,
          abi: TaxTokenArtifact.abi,
          functionName: "feeRate",
        }))) /
      10_000n
    : 0n;
  const bought = route === "curve" ? roundedCurveSell(quote.amountOut) : quote.amountOut;
  const tokens = bought - tax;
  if (tokens <= 0n) throw new ChainError(`a buy of ${funds} wei buys no whole units of ${token}`);
  const deadline = holdings.timestamp + 120n;
  const buy = buyCall(quote, {
    launchpad,
    router,
    weth,
    token,
    recipient: wallet,
    minAmount: bought,
    deadline,
  });
  const spender = route === "curve" ? launchpad : router;
  const allowance = held?.allowances[route === "curve" ? 0 : 1] ?? 0n;
  const approve =
    allowance < tokens
      ? {
          to: token,
          value: 0n,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: "approve",
            args: [spender, maxUint256],
          }),
        }
      : null;
  const sell = {
    to: spender,
    value: 0n,
    data: saleCallData(route, {
      token,
      weth,
      seller: wallet,
      amount: tokens,
      minFunds: 0n,
      deadline,
      taxed,
    }),
  };
  const planned: Array<{ role: BumpCall["role"]; request: BumpCall["request"] }> = [
    { role: "buy", request: buy },
    ...(approve ? [{ role: "approve" as const, request: approve }] : []),
    { role: "sell", request: sell },
  ];
  const results = await simulateCalls(
    client,
    planned.map((c) => ({ from: wallet, ...c.request })),
    { time: holdings.timestamp + 1n },
  );
  const calls: BumpCall[] = planned.map((c, i) => {
    const result = results[i];
    if (result?.status !== "success")
      throw new SimulationRevertError(
        `the bump's ${c.role}`,
        result ? revertOf(result) : "no result",
      );
    return { ...c, gas: withMargin(peakGasOf(result)) };
  });
  const sold = results[results.length - 1];
  const returned =
    route === "curve"
      ? curveProceeds(sold?.logs ?? [], launchpad, wallet)
      : taxed
        ? (routerPayout(sold?.logs ?? [], { weth, router }) ?? 0n)
        : bnbOut(sold?.data);
  const gasCost = calls.reduce((sum, c) => sum + c.gas, 0n) * gasPrice;
  const balance = held?.bnb ?? 0n;
  const need = quote.msgValue + gasCost + (params.extraCost ?? 0n);
  if (balance < need) throw new InsufficientFundsError(wallet, need - balance);
  return { route, calls, tokens, spent: quote.msgValue, returned, gasCost, balance };
};

/** The curve sale's proceeds after the fee, from its TokenSale event. */
const curveProceeds = (
  logs: ReadonlyArray<{ address: Address; data: Hex; topics: Hex[] }>,
  launchpad: Address,
  seller: Address,
): bigint => {
  for (const log of logs) {
    if (!isAddressEqual(log.address, launchpad)) continue;
    try {
      const event = decodeEventLog({
        abi: LaunchpadManagerArtifact.abi,
        data: log.data,
        topics: log.topics as [Hex, ...Hex[]],
      });
      if (event.eventName === "TokenSale" && isAddressEqual(event.args.account, seller))
        return event.args.cost - event.args.fee;
    } catch {
      // Not one of the launchpad's events.
    }
  }
  return 0n;
};

/** The DEX sale's BNB out, from swapExactTokensForETH's answer. */
const bnbOut = (data: Hex | undefined): bigint => {
  if (!data) return 0n;
  const amounts = decodeFunctionResult({
    abi: routerAbi,
    functionName: "swapExactTokensForETH",
    data,
  });
  return amounts.at(-1) ?? 0n;
};
