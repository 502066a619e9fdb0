import type { Address, Hash, LocalAccount } from "viem";
import { getCode } from "viem/actions";
import { RevertError } from "../errors.ts";
import {
  type AnyClient,
  assertCanPay,
  estimateWriteGas,
  readWriteContext,
  sendSigned,
} from "./signedWrite.ts";

export interface TransferParameters {
  account: LocalAccount;
  to: Address;
  /** BNB to send, in wei. */
  value: bigint;
  /** Overrides the node's gas price (wei). */
  gasPrice?: bigint;
}

export interface TransferReturnType {
  hash: Hash;
  /** Gas limit × gas price: the most the transfer costs on top of `value`. */
  gasCost: bigint;
}

/**
 * Sends BNB and waits until it is mined, after checking the wallet holds `value` plus the
 * gas (InsufficientFundsError names the shortfall). Signed offline: legacy type, pending
 * nonce, 21,000 gas to a plain account, the node's estimate when `to` has code.
 *
 * @example
 * const { hash } = await transfer(client, { account, to, value: parseEther("0.5") });
 */
export const transfer = async (
  client: AnyClient,
  { account, to, value, gasPrice }: TransferParameters,
): Promise<TransferReturnType> => {
  const context = await readWriteContext(client, account.address, gasPrice);
  const gas = await transferGas(client, account.address, context.balance, to, value);
  const gasCost = gas * context.gasPrice;
  assertCanPay(account.address, context.balance, value + gasCost);
  const receipt = await sendSigned(client, {
    account,
    chainId: context.chainId,
    nonce: context.nonce,
    gasPrice: context.gasPrice,
    gas,
    to,
    value,
    context: "transfer",
  });
  return { hash: receipt.transactionHash, gasCost };
};

/** 21,000 to a plain account; the node's estimate for a contract (its `receive` runs). */
export const transferGas = async (
  client: AnyClient,
  from: Address,
  balance: bigint,
  to: Address,
  value: bigint,
): Promise<bigint> => {
  const code = await getCode(client, { address: to });
  if (!code || code === "0x") return 21_000n;
  try {
    return await estimateWriteGas(client, from, balance, { to, value }, "transfer");
  } catch (error) {
    // A contract that reverts on plain BNB usually says nothing: say it for it.
    if (error instanceof RevertError && error.reason === "execution reverted")
      throw new RevertError("the recipient contract refuses BNB", "transfer");
    throw error;
  }
};
