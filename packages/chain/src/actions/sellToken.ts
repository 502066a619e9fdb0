import { LaunchpadManagerArtifact } from "@bundler/contracts";
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hash,
  type LocalAccount,
  maxUint256,
} from "viem";
import { readContract } from "viem/actions";
import { ChainError, describeRevert, InsufficientTokensError } from "../errors.ts";
import { curveSellAmount, quoteSellOn } from "./quoteSell.ts";
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
  type TradeQuote,
  type TradeRoute,
} from "./tradeRoute.ts";

export interface SellTokenParameters {
  account: LocalAccount;
  /** TokenManager2 (or the local launchpad): curve sells go here. */
  launchpad: Address;
  helper: Address;
  /** The DEX router and WBNB: graduated tokens are sold through the token → WBNB pair. */
  router: Address;
  weth: Address;
  token: Address;
  /** Tokens to sell; on the curve rounded down to whole gwei units (the launchpad's `GW` rule). */
  amount: bigint;
  /**
   * DEX only: less BNB than quoted that still goes through, in basis points (default 500n).
   * The curve's `sellToken(token, amount)` takes no minimum.
   */
  slippageBps?: bigint;
  /** Overrides the node's gas price (wei). */
  gasPrice?: bigint;
}

export interface SellTokenReturnType {
  /** The approval's hash when one was needed, then the sell's. */
  hashes: Hash[];
  route: TradeRoute;
  approved: boolean;
  /** The price the sell was sent at; `amountIn` is the amount actually sold. */
  quote: TradeQuote;
}

/** Gas a sell may need, counted before an approval is spent on a wallet that could not then sell. */
const SELL_GAS_BUDGET = 250_000n;

/**
 * Sells `token` for BNB and waits until it is mined: `sellToken` on the curve,
 * `swapExactTokensForETH` (at least the quote less the slippage) on the DEX once the token
 * graduated. When the launchpad (or the router) may not yet spend the tokens, an unlimited
 * `approve` goes first, as its own transaction at the pending nonce, and the sell follows
 * at the next. Throws InsufficientTokensError, InsufficientFundsError (gas, with the
 * shortfall) or RevertError with the reason in words.
 *
 * @example
 * const { hashes, route, approved } = await sellToken(client, {
 *   account, launchpad, helper, router, weth, token, amount: balance,
 * });
 */
export const sellToken = async (
  client: AnyClient,
  params: SellTokenParameters,
): Promise<SellTokenReturnType> => {
  const { account, launchpad, router, weth, token, slippageBps = 500n } = params;
  if (params.amount <= 0n) throw new ChainError(`sell: ${describeRevert("ZA")}`);
  const { route } = await readTradeRoute(client, params);
  const amount = route === "curve" ? curveSellAmount(params.amount) : params.amount;
  const spender = route === "curve" ? launchpad : router;
  const owner = account.address;
  const [held, allowance, context] = await Promise.all([
    readContract(client, {
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [owner],
    }),
    readContract(client, {
      address: token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [owner, spender],
    }),
    readWriteContext(client, owner, params.gasPrice),
  ]);
  if (held < amount) throw new InsufficientTokensError(owner, token, amount - held);
  const signing = { account, chainId: context.chainId, gasPrice: context.gasPrice };

  const hashes: Hash[] = [];
  let { balance, nonce } = context;
  const approved = allowance < amount;
  if (approved) {
    const approval = {
      to: token,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "approve",
        args: [spender, maxUint256],
      }),
    };
    const gas = withMargin(await estimateWriteGas(client, owner, balance, approval, "approve"));
    assertCanPay(owner, balance, (gas + SELL_GAS_BUDGET) * context.gasPrice);
    const receipt = await sendSigned(client, {
      ...signing,
      ...approval,
      nonce,
      gas,
      context: "approve",
    });
    hashes.push(receipt.transactionHash);
    balance -= receipt.gasUsed * receipt.effectiveGasPrice;
    nonce += 1;
  }

  const quote = await quoteSellOn(client, route, { ...params, amount });
  const sale =
    route === "curve"
      ? {
          to: launchpad,
          data: encodeFunctionData({
            abi: LaunchpadManagerArtifact.abi,
            functionName: "sellToken",
            args: [token, amount],
          }),
        }
      : {
          to: router,
          data: encodeFunctionData({
            abi: routerAbi,
            functionName: "swapExactTokensForETH",
            args: [
              amount,
              minimumAfterSlippage(quote.amountOut, slippageBps),
              [token, weth],
              owner,
              await swapDeadline(client),
            ],
          }),
        };
  const gas = withMargin(await estimateWriteGas(client, owner, balance, sale, "sell"));
  assertCanPay(owner, balance, gas * context.gasPrice);
  const receipt = await sendSigned(client, { ...signing, ...sale, nonce, gas, context: "sell" });
  hashes.push(receipt.transactionHash);
  return { hashes, route, approved, quote };
};
