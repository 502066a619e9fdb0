import type { Address, Hash, LocalAccount } from "viem";
import { emptyOf, type PreparedEmpty } from "./prepareEmpties.ts";
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

export type PrepareEmptyReturnType = (PreparedEmpty & { chainId: number; nonce: number }) | null;

/**
 * One wallet's empty before it is signed (its pending balance and nonce): everything but the
 * exact gas to `to`, or null when the balance does not cover the gas. A caller with its own
 * sender (a transaction manager) signs and sends it; prepareEmpties does many in one read.
 *
 * @example
 * const empty = await prepareEmpty(client, { account, to: treasury });
 */
export const prepareEmpty = async (
  client: AnyClient,
  { account, to, gasPrice }: EmptyWalletParameters,
): Promise<PrepareEmptyReturnType> => {
  const context = await readWriteContext(client, account.address, gasPrice);
  if (context.balance === 0n) return null;
  const gas = await transferGas(client, account.address, context.balance, to, context.balance);
  const empty = emptyOf(account.address, context.balance, to, gas, context.gasPrice);
  if ("error" in empty) return null;
  return { ...empty, chainId: context.chainId, nonce: context.nonce };
};

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
  params: EmptyWalletParameters,
): Promise<EmptyWalletReturnType> => {
  const empty = await prepareEmpty(client, params);
  if (!empty) return null;
  const receipt = await sendSigned(client, {
    account: params.account,
    chainId: empty.chainId,
    nonce: empty.nonce,
    gasPrice: empty.gasPrice,
    gas: empty.gas,
    ...empty.request,
    context: "empty wallet",
  });
  return { hash: receipt.transactionHash, value: empty.request.value };
};
