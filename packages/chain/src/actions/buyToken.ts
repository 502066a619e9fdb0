import { LaunchpadManagerArtifact } from "@bundler/contracts";
import { type Address, encodeFunctionData, type Hash, type Hex, type LocalAccount } from "viem";
import { type QuoteBuyReturnType, quoteBuyOn } from "./quoteBuy.ts";
import { routerAbi } from "./routerAbi.ts";
import {
  type AnyClient,
  assertCanPay,
  estimateWriteGas,
  readWriteContext,
  sendSigned,
  withMargin,
} from "./signedWrite.ts";
import {
  minimumAfterSlippage,
  readTradeRoute,
  swapDeadline,
  type TradeRoute,
} from "./tradeRoute.ts";

export interface BuyTokenParameters {
  account: LocalAccount;
  /** TokenManager2 (or the local launchpad): curve buys go here. */
  launchpad: Address;
  helper: Address;
  /** The DEX router and WBNB: graduated tokens are bought through the WBNB → token pair. */
  router: Address;
  weth: Address;
  token: Address;
  /** BNB to spend, fee included (a buy that fills the curve gets the unspent part back). */
  funds: bigint;
  /**
   * How many fewer tokens than quoted still go through, in basis points (default 500n = 5%);
   * a negative value demands more than the quote.
   */
  slippageBps?: bigint;
  /** Overrides the node's gas price (wei). */
  gasPrice?: bigint;
}

export interface BuyTokenReturnType {
  hash: Hash;
  route: TradeRoute;
  /** The price the buy was sent at; it got at least `amountOut` less the slippage. */
  quote: QuoteBuyReturnType;
}

export interface PrepareBuyReturnType {
  /** The transaction to sign: the curve's `buyTokenAMAP` or the DEX swap, with its value. */
  request: { to: Address; value: bigint; data: Hex };
  gas: bigint;
  gasPrice: bigint;
  chainId: number;
  route: TradeRoute;
  quote: QuoteBuyReturnType;
}

/**
 * The buy's call for a quote: the curve's `buyTokenAMAP` with the helper's amounts, as
 * four.meme's own clients send them, or the DEX's `swapExactETHForTokens` once it graduated.
 */
export const buyCall = (
  quote: QuoteBuyReturnType,
  p: {
    launchpad: Address;
    router: Address;
    weth: Address;
    token: Address;
    recipient: Address;
    /** The fewest tokens that may come out. */
    minAmount: bigint;
    /** DEX only: the swap's deadline (chain time). */
    deadline: bigint;
  },
): { to: Address; value: bigint; data: Hex } =>
  quote.route === "curve"
    ? {
        to: p.launchpad,
        value: quote.msgValue,
        data: encodeFunctionData({
          abi: LaunchpadManagerArtifact.abi,
          functionName: "buyTokenAMAP",
          args: [p.token, quote.funds, p.minAmount],
        }),
      }
    : {
        to: p.router,
        value: quote.msgValue,
        data: encodeFunctionData({
          abi: routerAbi,
          functionName: "swapExactETHForTokens",
          args: [p.minAmount, [p.weth, p.token], p.recipient, p.deadline],
        }),
      };

/**
 * Everything a buy needs before it is signed: the route, the quote (at least the quote less
 * the slippage), the call, its gas (with margin) and the gas price; throws
 * InsufficientFundsError with the shortfall, or RevertError with the launchpad's reason, before
 * anything is sent. A caller with its own sender (a transaction manager) signs and sends it.
 *
 * @example
 * const { request, gas, gasPrice } = await prepareBuy(client, { account, launchpad, helper, router, weth, token, funds });
 */
export const prepareBuy = async (
  client: AnyClient,
  params: BuyTokenParameters,
): Promise<PrepareBuyReturnType & { nonce: number }> => {
  const { account, launchpad, router, weth, token, slippageBps = 500n } = params;
  const { route } = await readTradeRoute(client, params);
  const [quote, context] = await Promise.all([
    quoteBuyOn(client, route, params),
    readWriteContext(client, account.address, params.gasPrice),
  ]);
  const minAmount = minimumAfterSlippage(quote.amountOut, slippageBps);
  const request = buyCall(quote, {
    launchpad,
    router,
    weth,
    token,
    recipient: account.address,
    minAmount,
    deadline: route === "dex" ? await swapDeadline(client) : 0n,
  });
  const gas = withMargin(
    await estimateWriteGas(client, account.address, context.balance, request, "buy"),
  );
  assertCanPay(account.address, context.balance, request.value + gas * context.gasPrice);
  return {
    request,
    gas,
    gasPrice: context.gasPrice,
    chainId: context.chainId,
    nonce: context.nonce,
    route,
    quote,
  };
};

/**
 * Buys `token` for `funds` BNB and waits until it is mined: `buyTokenAMAP` on the curve,
 * `swapExactETHForTokens` on the DEX once the token graduated, at least the quote less
 * the slippage either way. Signed offline (legacy, pending nonce); throws
 * InsufficientFundsError with the shortfall, or RevertError with the launchpad's reason.
 *
 * @example
 * const { hash, route } = await buyToken(client, {
 *   account, launchpad, helper, router, weth, token, funds: parseEther("0.1"), slippageBps: 300n,
 * });
 */
export const buyToken = async (
  client: AnyClient,
  params: BuyTokenParameters,
): Promise<BuyTokenReturnType> => {
  const prepared = await prepareBuy(client, params);
  const receipt = await sendSigned(client, {
    ...prepared.request,
    account: params.account,
    chainId: prepared.chainId,
    nonce: prepared.nonce,
    gas: prepared.gas,
    gasPrice: prepared.gasPrice,
    context: "buy",
  });
  return { hash: receipt.transactionHash, route: prepared.route, quote: prepared.quote };
};
