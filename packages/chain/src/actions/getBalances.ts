import { MULTICALL3_ADDRESS, Multicall3Artifact } from "@bundler/contracts";
import {
  type Address,
  type Client,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  hexToBigInt,
} from "viem";
import { call } from "viem/actions";
import { ChainError } from "../errors.ts";
import { rpcBatch } from "./rpcBatch.ts";

export interface GetBalancesParameters {
  addresses: readonly Address[];
  /** Also read this token's balance for every address. */
  token?: Address;
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
  { addresses, token }: GetBalancesParameters,
): Promise<GetBalancesReturnType> => {
  if (addresses.length === 0) return [];
  const chunks: Array<readonly Address[]> = [];
  for (let i = 0; i < addresses.length; i += ADDRESSES_PER_MULTICALL)
    chunks.push(addresses.slice(i, i + ADDRESSES_PER_MULTICALL));
  const answers = await ethCalls(
    client,
    chunks.map((chunk) => multicallData(chunk, token)),
  );
  const results = answers.flatMap((data) => {
    const calls = decodeFunctionResult({
      abi: Multicall3Artifact.abi,
      functionName: "aggregate3",
      data,
    });
    return calls.map((result) => hexToBigInt(result.returnData));
  });
  const stride = token ? 2 : 1;
  return addresses.map((address, i) => ({
    address,
    bnb: results[i * stride] ?? 0n,
    token: token ? (results[i * stride + 1] ?? 0n) : 0n,
  }));
};

const multicallData = (addresses: readonly Address[], token: Address | undefined): Hex =>
  encodeFunctionData({
    abi: Multicall3Artifact.abi,
    functionName: "aggregate3",
    args: [
      addresses.flatMap((address) => [
        {
          target: MULTICALL3_ADDRESS,
          allowFailure: false,
          callData: encodeFunctionData({
            abi: Multicall3Artifact.abi,
            functionName: "getEthBalance",
            args: [address],
          }),
        },
        ...(token
          ? [
              {
                target: token,
                allowFailure: false,
                callData: encodeFunctionData({
                  abi: erc20Abi,
                  functionName: "balanceOf",
                  args: [address],
                }),
              },
            ]
          : []),
      ]),
    ],
  });

/** One `eth_call` to Multicall3 per payload, in one HTTP request. */
const ethCalls = async (client: Client, payloads: Hex[]): Promise<Hex[]> => {
  if (payloads.length === 1) {
    const { data } = await call(client, { to: MULTICALL3_ADDRESS, data: payloads[0] });
    return [data ?? "0x"];
  }
  const url = (client.transport as { type?: string; url?: string }).url;
  if (!url) {
    throw new ChainError(
      `reading more than ${ADDRESSES_PER_MULTICALL} balances at once needs an http RPC transport`,
    );
  }
  const answers = await rpcBatch<Hex>(
    url,
    payloads.map((data) => ({
      method: "eth_call",
      params: [{ to: MULTICALL3_ADDRESS, data }, "latest"],
    })),
  );
  return answers.map((answer) => {
    if (!answer.result) throw new ChainError(`balances multicall failed: ${answer.error?.message}`);
    return answer.result;
  });
};
