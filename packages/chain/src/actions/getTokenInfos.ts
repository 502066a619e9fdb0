import { LaunchpadHelperArtifact } from "@bundler/contracts";
import { type Address, type Client, decodeFunctionResult, encodeFunctionData } from "viem";
import { aggregate3 } from "./aggregate3.ts";
import { type GetTokenInfoReturnType, tokenInfoOf } from "./getTokenInfo.ts";

export interface GetTokenInfosParameters {
  /** TokenManagerHelper3 (or the local LaunchpadHelper). */
  helper: Address;
  tokens: readonly Address[];
}

/** Per token, in order: its state, or null when the launchpad did not create it. */
export type GetTokenInfosReturnType = Array<GetTokenInfoReturnType | null>;

/**
 * getTokenInfo for many tokens in ONE multicall (one RPC request): a list of bundles learns
 * which of its tokens graduated without one call per token.
 *
 * @example
 * const infos = await getTokenInfos(client, { helper, tokens });
 * const graduated = infos.map((info) => info?.liquidityAdded ?? false);
 */
export const getTokenInfos = async (
  client: Client,
  { helper, tokens }: GetTokenInfosParameters,
): Promise<GetTokenInfosReturnType> => {
  const results = await aggregate3(
    client,
    tokens.map((token) => tokenInfoCall(helper, token)),
  );
  return results.map((result) => decodeTokenInfo(result));
};

/** The helper's `getTokenInfo(token)` as a multicall call that may fail. */
export const tokenInfoCall = (helper: Address, token: Address) => ({
  target: helper,
  allowFailure: true,
  callData: encodeFunctionData({
    abi: LaunchpadHelperArtifact.abi,
    functionName: "getTokenInfo",
    args: [token],
  }),
});

/** A `tokenInfoCall` result: null when it failed or the launchpad did not create the token. */
export const decodeTokenInfo = (result: {
  success: boolean;
  returnData: `0x${string}`;
}): GetTokenInfoReturnType | null => {
  if (!result.success) return null;
  const info = tokenInfoOf(
    decodeFunctionResult({
      abi: LaunchpadHelperArtifact.abi,
      functionName: "getTokenInfo",
      data: result.returnData,
    }),
  );
  return info.version === 0n ? null : info;
};
