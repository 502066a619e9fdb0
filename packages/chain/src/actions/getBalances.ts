import { type Address, type Client, hexToBigInt } from "viem";
import { aggregate3, ethBalanceCall, tokenBalanceCall } from "./aggregate3.ts";

export interface GetBalancesParameters {
  addresses: readonly Address[];
  /** Also read this token's balance for every address. */
  token?: Address;
  /** Read at this block rather than the latest. */
  blockNumber?: bigint;
}

export type GetBalancesReturnType = Array<{ address: Address; bnb: bigint; token: bigint }>;

/** Addresses per multicall: 500 (with a token, 1,000 calls) still fit one `eth_call`. */
export const ADDRESSES_PER_MULTICALL = 500;

/**
 * BNB (and token) balances of many addresses in one RPC request: one multicall for up to
 * 500 addresses; beyond that one multicall per 500, all in one JSON-RPC batch (which
 * needs an http transport).
 *
 * @example
 * const balances = await getBalances(client, { addresses, token });
 */
export const getBalances = async (
  client: Client,
  { addresses, token, blockNumber }: GetBalancesParameters,
): Promise<GetBalancesReturnType> => {
  if (addresses.length === 0) return [];
  const stride = token ? 2 : 1;
  const results = await aggregate3(
    client,
    addresses.flatMap((address) => [
      ethBalanceCall(address),
      ...(token ? [tokenBalanceCall(token, address)] : []),
    ]),
    {
      callsPerRequest: ADDRESSES_PER_MULTICALL * stride,
      what: `${ADDRESSES_PER_MULTICALL} balances`,
      blockNumber,
    },
  );
  const values = results.map((result) => hexToBigInt(result.returnData));
  return addresses.map((address, i) => ({
    address,
    bnb: values[i * stride] ?? 0n,
    token: token ? (values[i * stride + 1] ?? 0n) : 0n,
  }));
};
