import { LaunchpadManagerArtifact } from "@bundler/contracts";
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
import { getGasPrice } from "viem/actions";
import {
  ChainError,
  describeRevert,
  InsufficientFundsError,
  InsufficientTokensError,
  SimulationRevertError,
} from "../errors.ts";
import { type GetTokenHoldingsReturnType, getTokenHoldings } from "./getTokenHoldings.ts";
import { isTaxTemplate } from "./getTokenKind.ts";
import { GWEI_UNIT_SELL_HINT, roundedCurveSell } from "./quoteSell.ts";
import { routerAbi, wethWithdrawalAbi } from "./routerAbi.ts";
import type { AnyClient } from "./signedWrite.ts";
import { withMargin } from "./signedWrite.ts";
import { peakGasOf, revertOf, type SimulatedCall, simulateCalls } from "./simulation.ts";
import {
  minimumAfterSlippage,
  netOfSellFee,
  routeOf,
  type TradeQuote,
  type TradeRoute,
} from "./tradeRoute.ts";

export interface PrepareSellsParameters {
  /** TokenManager2 (or the local launchpad): curve sells go here. */
  launchpad: Address;
  helper: Address;
  /** The DEX router and WBNB: graduated tokens are sold through the token → WBNB pair. */
  router: Address;
  weth: Address;
  token: Address;
  /** Who sells how many tokens, in the order the sells will land (each seller at most once). */
  sellers: ReadonlyArray<{ address: Address; amount: bigint }>;
  /**
   * Each sale's floor: how much lower than the simulation priced it the sale may still go
   * through, in basis points (default 500n, 5%). On the curve it is the router variant's
   * `minFunds`, taken on the gross curve quote as TokenManager2 compares it (trade guide
   * §4.2), so it is also 5% off what the seller gets; on the DEX `amountOutMin`. A price
   * moved further against the seller reverts the sale.
   */
  slippageBps?: bigint;
  /** Overrides the node's gas price (wei). */
  gasPrice?: bigint;
  /**
   * What getTokenHoldings already read (with `helper`, `launchpad` and spenders
   * `[launchpad, router]`).
   */
  holdings?: GetTokenHoldingsReturnType;
  /** Seconds after the latest block a DEX swap stays valid (default 120). */
  deadlineSeconds?: bigint;
}

/** A transaction to sign: `to`, `data` (no value), and its gas limit (with margin). */
export interface PreparedCall {
  request: { to: Address; data: Hex; value: bigint };
  gas: bigint;
}

export interface PreparedSell {
  address: Address;
  /** The tokens' unlimited approval to the launchpad or router, when the sell needs one first. */
  approval: PreparedCall | null;
  sale: PreparedCall;
  /** What this sell gets in the simulated block, after every sell before it; `amountIn` sold. */
  quote: TradeQuote;
  /**
   * The floor the chain checks, wei: on the curve the `minFunds` signed, compared with the
   * sale's gross curve quote (`quote.amountOut + quote.fee` less the slippage); on the DEX
   * `amountOutMin` (`quote.amountOut` less the slippage). A sale below it reverts.
   */
  minFunds: bigint;
  /**
   * The least the seller receives if the sale lands, wei, what a user is told: on the curve
   * `minFunds` less the launchpad's fee on it, on the DEX `minFunds` itself.
   */
  minOut: bigint;
  /** BNB the approval and the sale may cost in gas at `gasPrice`. */
  gasCost: bigint;
}

export interface PrepareSellsReturnType {
  route: TradeRoute;
  gasPrice: bigint;
  /** Per seller, in order: the sell to sign, or why this wallet cannot sell (nothing to send). */
  sells: Array<PreparedSell | { address: Address; error: ChainError }>;
}

/**
 * A sale's calldata with its floor `minFunds`: on the curve four.meme's router variant
 * `sellToken(origin, token, amount, minFunds, feeRate, feeRecipient)` (no router fee: rate 0,
 * the seller as recipient; `minFunds` is compared with the gross curve quote), on the DEX
 * `swapExactTokensForETH` with `amountOutMin`, or for a tax token (`taxed`) its
 * fee-on-transfer variant, which prices what reached the pair after the token's tax (tax
 * guide §4: the tax is taken on transfers to the pair; the plain swap would revert `K`).
 */
export const saleCallData = (
  route: TradeRoute,
  p: {
    token: Address;
    weth: Address;
    seller: Address;
    amount: bigint;
    minFunds: bigint;
    deadline: bigint;
    taxed?: boolean;
  },
): Hex =>
  route === "dex" && p.taxed
    ? encodeFunctionData({
        abi: routerAbi,
        functionName: "swapExactTokensForETHSupportingFeeOnTransferTokens",
        args: [p.amount, p.minFunds, [p.token, p.weth], p.seller, p.deadline],
      })
    : route === "curve"
      ? encodeFunctionData({
          abi: LaunchpadManagerArtifact.abi,
          functionName: "sellToken",
          args: [0n, p.token, p.amount, p.minFunds, 0n, p.seller],
        })
      : encodeFunctionData({
          abi: routerAbi,
          functionName: "swapExactTokensForETH",
          args: [p.amount, p.minFunds, [p.token, p.weth], p.seller, p.deadline],
        });

/**
 * What a fee-on-transfer DEX sale (which answers nothing) paid the seller: the router's last
 * WBNB unwrap in its logs (a tax dispatch inside the sale unwraps for the token before it);
 * null when there is none.
 */
export const routerPayout = (
  logs: ReadonlyArray<{ address: Address; data: Hex; topics: readonly Hex[] }>,
  { weth, router }: { weth: Address; router: Address },
): bigint | null => {
  let amountOut: bigint | null = null;
  for (const log of logs) {
    if (!isAddressEqual(log.address, weth)) continue;
    try {
      const event = decodeEventLog({
        abi: wethWithdrawalAbi,
        data: log.data,
        topics: log.topics as [Hex, ...Hex[]],
      });
      if (isAddressEqual(event.args.src, router)) amountOut = event.args.wad;
    } catch {
      // Not an unwrap.
    }
  }
  return amountOut;
};

/**
 * Everything many sells of one token need before they are signed, in three RPC requests
 * whatever their number: one multicall (the token's route, every wallet's tokens, BNB and
 * allowances), one `eth_simulateV1` that runs every approval and sale in order in one block
 * (so each sell is priced after the ones before it, and an approval's sale is sized before
 * the approval exists), and the gas price. Each sale carries a floor, its simulated proceeds
 * less `slippageBps`, so a price moved against it reverts the sale instead of filling it
 * lower. A wallet that cannot sell (no tokens, fewer than asked, a revert, too little BNB for
 * gas) gets its reason; the others are unaffected. A caller with its own sender (a transaction
 * manager) signs approval then sale at consecutive nonces and sends them all together.
 *
 * @example
 * const { sells } = await prepareSells(client, { launchpad, helper, router, weth, token, sellers });
 */
export const prepareSells = async (
  client: AnyClient,
  params: PrepareSellsParameters,
): Promise<PrepareSellsReturnType> => {
  const { launchpad, router, weth, token, slippageBps = 500n } = params;
  const addresses = params.sellers.map((s) => s.address);
  const [holdings, gasPrice] = await Promise.all([
    params.holdings ??
      getTokenHoldings(client, {
        token,
        addresses,
        helper: params.helper,
        launchpad,
        spenders: [launchpad, router],
      }),
    params.gasPrice ?? getGasPrice(client),
  ]);
  if (!holdings.info) throw new ChainError(`token ${token} is not one of the launchpad's`);
  const route = routeOf(holdings.info, { token, launchpad, template: holdings.template });
  const spender = route === "curve" ? launchpad : router;
  const spenderIndex = route === "curve" ? 0 : 1;
  const deadline = holdings.timestamp + (params.deadlineSeconds ?? 120n);
  const held = new Map(holdings.holdings.map((h) => [h.address.toLowerCase(), h]));

  type Planned = { address: Address; amount: bigint; approve: boolean; bnb: bigint };
  const planned: Array<Planned | { address: Address; error: ChainError }> = params.sellers.map(
    ({ address, amount }) => {
      const holding = held.get(address.toLowerCase());
      if (!holding) return { address, error: new ChainError(`wallet ${address} was not read`) };
      if (holding.token === 0n)
        return { address, error: new ChainError(`wallet ${address} holds none of this token`) };
      if (amount <= 0n) return { address, error: new ChainError(`sell: ${describeRevert("ZA")}`) };
      const sold = route === "curve" ? roundedCurveSell(amount) : amount;
      if (sold <= 0n) return { address, error: new ChainError(GWEI_UNIT_SELL_HINT) };
      if (holding.token < sold)
        return {
          address,
          error: new InsufficientTokensError(address, token, sold - holding.token),
        };
      const allowance = holding.allowances[spenderIndex] ?? 0n;
      return { address, amount: sold, approve: allowance < sold, bnb: holding.bnb };
    },
  );

  const approval = encodeFunctionData({
    abi: erc20Abi,
    functionName: "approve",
    args: [spender, maxUint256],
  });
  const taxed = isTaxTemplate(holdings.template);
  const saleData = (seller: Address, amount: bigint, minFunds: bigint): Hex =>
    saleCallData(route, { token, weth, seller, amount, minFunds, deadline, taxed });
  const info = holdings.info;
  const selling = planned.filter((p): p is Planned => "amount" in p);
  const calls = selling.flatMap((p) => [
    ...(p.approve ? [{ from: p.address, to: token, data: approval }] : []),
    { from: p.address, to: spender, data: saleData(p.address, p.amount, 0n) },
  ]);
  // In the next block (a second on): a pool's first swap in a block writes its cumulative
  // prices, which a simulation at the latest block's own time would not pay for.
  const results =
    calls.length > 0 ? await simulateCalls(client, calls, { time: holdings.timestamp + 1n }) : [];

  let at = 0;
  const outcomes = new Map<Planned, PreparedSell | { address: Address; error: ChainError }>();
  for (const p of selling) {
    const approved = p.approve ? results[at++] : undefined;
    const sold = results[at++];
    outcomes.set(p, settle(p, approved, sold));
  }
  return {
    route,
    gasPrice,
    sells: planned.map((p) => ("amount" in p ? (outcomes.get(p) as PreparedSell) : p)),
  };

  function settle(
    p: Planned,
    approved: SimulatedCall | undefined,
    sold: SimulatedCall | undefined,
  ): PreparedSell | { address: Address; error: ChainError } {
    const role = `the sell by wallet ${p.address}`;
    if (p.approve && approved?.status !== "success")
      return {
        address: p.address,
        error: new SimulationRevertError(
          `the approval by wallet ${p.address}`,
          approved ? revertOf(approved) : "no result",
        ),
      };
    if (sold?.status !== "success")
      return {
        address: p.address,
        error: new SimulationRevertError(role, sold ? revertOf(sold) : "no result"),
      };
    const quote = quoteOf(p, sold);
    if (!quote)
      return { address: p.address, error: new ChainError(`simulation: ${role} sold nothing`) };
    const approvalCall = approved
      ? { request: { to: token, data: approval, value: 0n }, gas: withMargin(peakGasOf(approved)) }
      : null;
    // TokenManager2 compares minFunds with the gross curve quote, before its fee (trade
    // guide §4.2): the floor is taken there, and the seller is told what it leaves them.
    const minFunds =
      route === "curve"
        ? minimumAfterSlippage(quote.amountOut + quote.fee, slippageBps)
        : minimumAfterSlippage(quote.amountOut, slippageBps);
    const minOut = route === "curve" ? netOfSellFee(minFunds, info) : minFunds;
    const sale = {
      request: { to: spender, data: saleData(p.address, p.amount, minFunds), value: 0n },
      gas: withMargin(peakGasOf(sold)),
    };
    const gasCost = ((approvalCall?.gas ?? 0n) + sale.gas) * gasPrice;
    if (p.bnb < gasCost)
      return { address: p.address, error: new InsufficientFundsError(p.address, gasCost - p.bnb) };
    return { address: p.address, approval: approvalCall, sale, quote, minFunds, minOut, gasCost };
  }

  /** What the simulated sale paid: the router's amounts on the DEX, TokenSale on the curve. */
  function quoteOf(p: Planned, sold: SimulatedCall): TradeQuote | null {
    if (route === "dex" && taxed) {
      const amountOut = routerPayout(sold.logs ?? [], { weth, router });
      return amountOut === null ? null : { route, amountIn: p.amount, amountOut, fee: 0n };
    }
    if (route === "dex") {
      const amounts = decodeFunctionResult({
        abi: routerAbi,
        functionName: "swapExactTokensForETH",
        data: sold.data,
      });
      const amountOut = amounts.at(-1) ?? 0n;
      return { route, amountIn: p.amount, amountOut, fee: 0n };
    }
    for (const log of sold.logs ?? []) {
      if (!isAddressEqual(log.address, launchpad)) continue;
      try {
        const event = decodeEventLog({ abi: LaunchpadManagerArtifact.abi, ...log });
        if (event.eventName === "TokenSale" && isAddressEqual(event.args.account, p.address))
          return {
            route,
            amountIn: event.args.amount,
            amountOut: event.args.cost - event.args.fee,
            fee: event.args.fee,
          };
      } catch {
        // Not one of the launchpad's events.
      }
    }
    return null;
  }
};
