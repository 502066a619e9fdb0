import type { Address, Hash, LocalAccount } from "viem";
import { getChainId, getTransactionCount } from "viem/actions";
import { ChainError, describeRevert } from "../errors.ts";
import { type PreparedSell, prepareSells } from "./prepareSells.ts";
import { type AnyClient, sendSigned } from "./signedWrite.ts";
import type { TradeQuote, TradeRoute } from "./tradeRoute.ts";

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
   * Less BNB than the simulated sale gets that still goes through, in basis points (default
   * 500n): the curve sale's `minFunds`, the DEX swap's `amountOutMin`.
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

export interface PrepareSellReturnType extends PreparedSell {
  route: TradeRoute;
  gasPrice: bigint;
  chainId: number;
  /** The wallet's pending nonce: the approval (when one is needed) uses it, the sale the next. */
  nonce: number;
}

/**
 * Everything one sell needs before it is signed (prepareSells for one wallet, plus the chain id
 * and the pending nonce): the approval when the launchpad (or the router) may not yet spend the
 * tokens, the sale (`sellToken` on the curve, `swapExactTokensForETH` on the DEX, each for at
 * least the simulated BNB less the slippage), their gas and the price. Throws
 * InsufficientTokensError, InsufficientFundsError (gas, with the shortfall) or
 * SimulationRevertError before anything is sent. A caller with its own sender (a transaction
 * manager) signs and sends them.
 *
 * @example
 * const { approval, sale, gasPrice, nonce } = await prepareSell(client, { account, launchpad, helper, router, weth, token, amount });
 */
export const prepareSell = async (
  client: AnyClient,
  params: SellTokenParameters,
): Promise<PrepareSellReturnType> => {
  const { account, amount, ...rest } = params;
  if (amount <= 0n) throw new ChainError(`sell: ${describeRevert("ZA")}`);
  const [prepared, chainId, nonce] = await Promise.all([
    prepareSells(client, { ...rest, sellers: [{ address: account.address, amount }] }),
    client.chain?.id ?? getChainId(client),
    getTransactionCount(client, { address: account.address, blockTag: "pending" }),
  ]);
  const [sell] = prepared.sells;
  if (!sell) throw new ChainError("sell: nothing prepared");
  if ("error" in sell) throw sell.error;
  return { ...sell, route: prepared.route, gasPrice: prepared.gasPrice, chainId, nonce };
};

/**
 * Sells `token` for BNB and waits until it is mined: `sellToken` on the curve,
 * `swapExactTokensForETH` on the DEX once the token graduated, each for at least the quote
 * less the slippage. When the launchpad (or the router) may not yet spend the tokens, an
 * unlimited `approve` goes first, as its own transaction at the pending nonce, and the sell
 * follows at the next. Throws InsufficientTokensError, InsufficientFundsError (gas, with the
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
  const prepared = await prepareSell(client, params);
  const signing = {
    account: params.account,
    chainId: prepared.chainId,
    gasPrice: prepared.gasPrice,
  };
  const hashes: Hash[] = [];
  let nonce = prepared.nonce;
  if (prepared.approval) {
    const receipt = await sendSigned(client, {
      ...signing,
      ...prepared.approval.request,
      nonce: nonce++,
      gas: prepared.approval.gas,
      context: "approve",
    });
    hashes.push(receipt.transactionHash);
  }
  const receipt = await sendSigned(client, {
    ...signing,
    ...prepared.sale.request,
    nonce,
    gas: prepared.sale.gas,
    context: "sell",
  });
  hashes.push(receipt.transactionHash);
  return {
    hashes,
    route: prepared.route,
    approved: prepared.approval !== null,
    quote: prepared.quote,
  };
};
