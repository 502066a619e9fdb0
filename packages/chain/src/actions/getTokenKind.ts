import { LaunchpadManagerArtifact } from "@bundler/contracts";
import { type Address, type Client, decodeFunctionResult, encodeFunctionData } from "viem";
import { aggregate3 } from "./aggregate3.ts";
import type { GetTokenInfoReturnType } from "./getTokenInfo.ts";
import { decodeTokenInfo, tokenInfoCall } from "./getTokenInfos.ts";

/** `template & X_MODE_BIT`: an X Mode (exclusive) token (four-meme-ai errors.md). */
export const X_MODE_BIT = 0x10000n;

/** four.meme's creator type, `(template >> 10) & 0x3F` (tax guide §2.1): 5, 8, 9 are tax tokens. */
export const creatorTypeOf = (template: bigint): bigint => (template >> 10n) & 0x3fn;

/**
 * A tax token (creator type 5, 8 or 9; tax guide §1): its DEX transfers are taxed, so its DEX
 * sales go through the router's fee-on-transfer variant, whose pair input is what arrived.
 */
export const isTaxTemplate = (template: bigint | null): boolean =>
  template !== null && [5n, 8n, 9n].includes(creatorTypeOf(template));

/** Why this app does not trade a TokenManager V1 token, in words. */
export const V1_REFUSAL =
  "it was launched on four.meme's first TokenManager (V1, before 2024-09-05), whose trades this app does not make";
/** Why this app does not trade an X Mode token, in words. */
export const X_MODE_REFUSAL =
  "it is an X Mode token: four.meme sells it only through buys its own API signs, which this app does not make";

/**
 * Why this app will not trade a token of this kind, or null: a TokenManager V1 token (the
 * helper's version 1; integration guide §3), an X Mode token (its template's bit 16). Other
 * creator types (tax tokens) are read, not refused here.
 */
export const kindRefusal = (version: bigint, template: bigint | null): string | null => {
  if (version === 1n) return V1_REFUSAL;
  if (template !== null && (template & X_MODE_BIT) !== 0n) return X_MODE_REFUSAL;
  return null;
};

/** TokenManager2's `_tokenInfos(token)` as a multicall call that may fail. */
export const templateCall = (launchpad: Address, token: Address) => ({
  target: launchpad,
  allowFailure: true,
  callData: encodeFunctionData({
    abi: LaunchpadManagerArtifact.abi,
    functionName: "_tokenInfos",
    args: [token],
  }),
});

/** A `templateCall` result's `template`: null when the call failed. */
export const decodeTemplate = (result: {
  success: boolean;
  returnData: `0x${string}`;
}): bigint | null => {
  if (!result.success) return null;
  try {
    return decodeFunctionResult({
      abi: LaunchpadManagerArtifact.abi,
      functionName: "_tokenInfos",
      data: result.returnData,
    }).template;
  } catch {
    return null;
  }
};

export interface GetTokenKindParameters {
  helper: Address;
  /** TokenManager2 (or the local launchpad): `_tokenInfos` is read there. */
  launchpad: Address;
  token: Address;
}

export interface GetTokenKindReturnType {
  /** The helper's view of the token; null when the launchpad did not create it. */
  info: GetTokenInfoReturnType | null;
  /** 0n: not the launchpad's; 1n: TokenManager V1; 2n: TokenManager2. */
  version: bigint;
  /** `_tokenInfos(token).template`; null when it could not be read. */
  template: bigint | null;
  creatorType: bigint | null;
  xMode: boolean;
  /** Why this app will not trade it, in words; null when it will. */
  refusal: string | null;
}

/**
 * What kind of four.meme token `token` is, in one multicall: the helper's `getTokenInfo`
 * (version 1 or 2) and TokenManager2's `_tokenInfos(token).template` (creator type, X Mode),
 * as four.meme's integration and tax guides identify them, with the reason this app refuses
 * it, if it does.
 *
 * @example
 * const { creatorType, xMode, refusal } = await getTokenKind(client, { helper, launchpad, token });
 */
export const getTokenKind = async (
  client: Client,
  { helper, launchpad, token }: GetTokenKindParameters,
): Promise<GetTokenKindReturnType> => {
  const [info, template] = await aggregate3(client, [
    tokenInfoCall(helper, token),
    templateCall(launchpad, token),
  ]);
  const decoded = info ? decodeTokenInfo(info) : null;
  const read = template ? decodeTemplate(template) : null;
  const version = decoded?.version ?? 0n;
  return {
    info: decoded,
    version,
    template: read,
    creatorType: read === null ? null : creatorTypeOf(read),
    xMode: read !== null && (read & X_MODE_BIT) !== 0n,
    refusal: kindRefusal(version, read),
  };
};
