import { MULTICALL3_ADDRESS, Multicall3Artifact } from "@bundler/contracts";
import { type Address, type Client, erc20Abi } from "viem";
import { multicall } from "viem/actions";

export interface GetBalancesParameters {
  addresses: readonly Address[];
  /** Also read this token's balance for every address. */
  token?: Address;
}

export type GetBalancesReturnType = Array<{ address: Address; bnb: bigint; token: bigint }>;

/** Large enough that 500 addresses and a token still fit one `eth_call`. */
const ONE_CALL = 1_000_000;

/**
 * BNB (and token) balances of many addresses in one multicall: one RPC request.
 *
 * @example
 * const balances = await getBalances(client, { addresses, token });
 */
export const getBalances = async (
  client: Client,
  { addresses, token }: GetBalancesParameters,
): Promise<GetBalancesReturnType> => {
  if (addresses.length === 0) return [];
  const contracts = addresses.flatMap((address) => [
    {
      address: MULTICALL3_ADDRESS,
      abi: Multicall3Artifact.abi,
      functionName: "getEthBalance",
      args: [address],
    } as const,
    ...(token
      ? [{ address: token, abi: erc20Abi, functionName: "balanceOf", args: [address] } as const]
      : []),
  ]);
  const results = (await multicall(client, {
    contracts,
    allowFailure: false,
    multicallAddress: MULTICALL3_ADDRESS,
    batchSize: ONE_CALL,
  })) as bigint[];
  const stride = token ? 2 : 1;
  return addresses.map((address, i) => ({
    address,
    bnb: results[i * stride] ?? 0n,
    token: token ? (results[i * stride + 1] ?? 0n) : 0n,
  }));
};
