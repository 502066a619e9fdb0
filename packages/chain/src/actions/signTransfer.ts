import type { Address, Hex, LocalAccount } from "viem";

export interface SignTransferParameters {
  account: LocalAccount;
  chainId: number;
  to: Address;
  value: bigint;
  nonce: number;
  gasPrice: bigint;
  /** 21,000 for a plain account; more when `to` is a contract. */
  gas?: bigint;
}

/**
 * A BNB transfer signed offline with an explicit nonce (legacy type, as BSC uses):
 * it costs exactly `gas × gasPrice` when `to` is a plain account.
 *
 * @example
 * const raw = await signTransfer({ account, chainId: 56, to, value, nonce: 0, gasPrice });
 */
export const signTransfer = (params: SignTransferParameters): Promise<Hex> =>
  params.account.signTransaction({
    type: "legacy",
    chainId: params.chainId,
    to: params.to,
    value: params.value,
    nonce: params.nonce,
    gasPrice: params.gasPrice,
    gas: params.gas ?? 21_000n,
  });
