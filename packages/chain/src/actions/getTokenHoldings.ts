import { MULTICALL3_ADDRESS, Multicall3Artifact } from "@bundler/contracts";
import { type Address, type Client, encodeFunctionData, erc20Abi, hexToBigInt } from "viem";
import { aggregate3, ethBalanceCall, tokenBalanceCall } from "./aggregate3.ts";
import type { GetTokenInfoReturnType } from "./getTokenInfo.ts";
import { decodeTokenInfo, tokenInfoCall } from "./getTokenInfos.ts";
import { decodeTemplate, templateCall } from "./getTokenKind.ts";

export interface GetTokenHoldingsParameters {
  token: Address;
  addresses: readonly Address[];
  /** The launchpad's helper: also read the token's state (curve or DEX, graduation). */
  helper?: Address;
  /** TokenManager2 (or the local launchpad): also read the token's template (its kind). */
  launchpad?: Address;
  /** Also read what each address allows these spenders (the launchpad, the DEX router). */
  spenders?: readonly Address[];
}

export interface GetTokenHoldingsReturnType {
  /** The helper's view of the token; null without a helper or when it did not create the token. */
  info: GetTokenInfoReturnType | null;
  /** `_tokenInfos(token).template` (creator type, X Mode); null without `launchpad` or unread. */
  template: bigint | null;
  totalSupply: bigint;
  /** The latest block's number and time (a DEX deadline counts from it). */
  blockNumber: bigint;
  timestamp: bigint;
  /** Per address, in order: BNB, tokens, and the allowance to each of `spenders`. */
  holdings: Array<{ address: Address; bnb: bigint; token: bigint; allowances: bigint[] }>;
}

/**
 * Everything a wallet manager reads about a token and many wallets in ONE RPC request (one
 * multicall, or one JSON-RPC batch of them past 1,000 calls): the token's state and supply,
 * the block, and every wallet's BNB, tokens and allowances.
 *
 * @example
 * const { info, template, holdings } = await getTokenHoldings(client, { token, helper, launchpad, addresses, spenders: [launchpad, router] });
 */
export const getTokenHoldings = async (
  client: Client,
  { token, addresses, helper, launchpad, spenders = [] }: GetTokenHoldingsParameters,
): Promise<GetTokenHoldingsReturnType> => {
  const multicall = (functionName: "getBlockNumber" | "getCurrentBlockTimestamp") => ({
    target: MULTICALL3_ADDRESS,
    callData: encodeFunctionData({ abi: Multicall3Artifact.abi, functionName }),
  });
  const head = [
    {
      target: token,
      callData: encodeFunctionData({ abi: erc20Abi, functionName: "totalSupply" }),
    },
    multicall("getBlockNumber"),
    multicall("getCurrentBlockTimestamp"),
    ...(helper ? [tokenInfoCall(helper, token)] : []),
    ...(launchpad ? [templateCall(launchpad, token)] : []),
  ];
  const stride = 2 + spenders.length;
  const results = await aggregate3(client, [
    ...head,
    ...addresses.flatMap((address) => [
      ethBalanceCall(address),
      tokenBalanceCall(token, address),
      ...spenders.map((spender) => ({
        target: token,
        callData: encodeFunctionData({
          abi: erc20Abi,
          functionName: "allowance",
          args: [address, spender],
        }),
      })),
    ]),
  ]);
  const value = (i: number) => {
    const result = results[i];
    return result?.success && result.returnData !== "0x" ? hexToBigInt(result.returnData) : 0n;
  };
  const infoResult = helper ? results[3] : undefined;
  const templateResult = launchpad ? results[helper ? 4 : 3] : undefined;
  return {
    info: infoResult ? decodeTokenInfo(infoResult) : null,
    template: templateResult ? decodeTemplate(templateResult) : null,
    totalSupply: value(0),
    blockNumber: value(1),
    timestamp: value(2),
    holdings: addresses.map((address, n) => {
      const at = head.length + n * stride;
      return {
        address,
        bnb: value(at),
        token: value(at + 1),
        allowances: spenders.map((_, k) => value(at + 2 + k)),
      };
    }),
  };
};
