import { type Address, type Client, formatEther } from "viem";
import { getGasPrice } from "viem/actions";
import { ChainError } from "../errors.ts";
import { getBalances } from "./getBalances.ts";
import type { AnyClient } from "./signedWrite.ts";
import { transferGas } from "./transfer.ts";

export interface PrepareEmptiesParameters {
  /** The wallets to empty. */
  from: readonly Address[];
  /** Where every wallet's BNB goes. */
  to: Address;
  /** Overrides the node's gas price (wei). */
  gasPrice?: bigint;
}

/** One wallet's whole balance minus the transfer's exact gas cost. */
export interface PreparedEmpty {
  from: Address;
  balance: bigint;
  request: { to: Address; value: bigint };
  gas: bigint;
  gasPrice: bigint;
}

export type PrepareEmptiesReturnType = Array<PreparedEmpty | { from: Address; error: ChainError }>;

/**
 * Every wallet's transfer of all its BNB but the gas, to one receiver, in three RPC requests
 * whatever their number (one multicall of balances, the receiver's code, the gas price).
 * Legacy transactions pay gas used × price, and a plain transfer uses exactly 21,000 gas, so
 * each wallet ends at exactly 0 wei once mined; into a contract the gas is the node's
 * estimate (what it leaves unused stays behind). A wallet with nothing, or with no more than
 * the gas, gets its reason instead.
 *
 * @example
 * const empties = await prepareEmpties(client, { from: wallets, to: receiver });
 */
export const prepareEmpties = async (
  client: AnyClient,
  { from, to, gasPrice }: PrepareEmptiesParameters,
): Promise<PrepareEmptiesReturnType> => {
  if (from.length === 0) return [];
  const [balances, price] = await Promise.all([
    getBalances(client as Client, { addresses: from }),
    gasPrice ?? getGasPrice(client),
  ]);
  const richest = balances.reduce((a, b) => (b.bnb > a.bnb ? b : a));
  const gas =
    richest.bnb > 0n
      ? await transferGas(client, richest.address, richest.bnb, to, richest.bnb)
      : 0n;
  return balances.map(({ address, bnb }) => emptyOf(address, bnb, to, gas, price));
};

/** The whole `balance` minus `gas × gasPrice` to `to`, or why there is nothing to send. */
export const emptyOf = (
  from: Address,
  balance: bigint,
  to: Address,
  gas: bigint,
  gasPrice: bigint,
): PreparedEmpty | { from: Address; error: ChainError } => {
  if (balance === 0n) return { from, error: new ChainError(`wallet ${from} holds no BNB`) };
  const value = balance - gas * gasPrice;
  if (value <= 0n)
    return {
      from,
      error: new ChainError(
        `wallet ${from} holds ${formatEther(balance)} BNB, no more than the transfer's gas (${formatEther(gas * gasPrice)} BNB)`,
      ),
    };
  return { from, balance, request: { to, value }, gas, gasPrice };
};
