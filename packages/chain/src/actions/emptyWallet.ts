import type { Address, Hash, LocalAccount } from "viem";
import type { AnyClient } from "./signedWrite.ts";
import { readWriteContext, sendSigned } from "./signedWrite.ts";
import { transferGas } from "./transfer.ts";

export interface EmptyWalletParameters {
  account: LocalAccount;
  to: Address;
  /** Overrides the node's gas price (wei). */
  gasPrice?: bigint;
}

/** null when the balance does not cover the transfer's gas (nothing is sent). */
export type EmptyWalletReturnType = { hash: Hash; value: bigint } | null;

/**
 * Sends the whole balance minus the exact gas cost and waits until it is mined. To a plain
 * account the transfer uses exactly 21,000 gas, so the wallet ends at exactly zero; to a
 * contract the gas is the node's estimate, and what the contract does not use stays behind.
 *
 * @example
 * const sent = await emptyWallet(client, { account, to: treasury });
 * if (sent === null) console.log("only dust left");
 */
export const emptyWallet = async (
  client: AnyClient,
  { account, to, gasPrice }: EmptyWalletParameters,
): Promise<EmptyWalletReturnType> => {
  const context = await readWriteContext(client, account.address, gasPrice);
  if (context.balance === 0n) return null;
  const gas = await transferGas(client, account.address, context.balance, to, context.balance);
  const value = context.balance - gas * context.gasPrice;
  if (value <= 0n) return null;
  const receipt = await sendSigned(client, {
    account,
    chainId: context.chainId,
    nonce: context.nonce,
    gasPrice: context.gasPrice,
    gas,
    to,
    value,
    context: "empty wallet",
  });
  return { hash: receipt.transactionHash, value };
};
