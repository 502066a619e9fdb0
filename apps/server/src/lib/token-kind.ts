import { getTokenKind } from "@bundler/chain";
import type { Address } from "viem";
import type { ChainContext } from "./chain-context.ts";
import { BadRequestError } from "./errors.ts";

/**
 * Refuses, as a 400 that says why, a token of a kind this app does not trade: a TokenManager
 * V1 token (four.meme's integration guide §3) or an X Mode token (four-meme-ai errors.md),
 * read in one multicall. `doing` completes "Token 0x… cannot be …". Nothing is checked without
 * a launchpad to ask.
 *
 * @example
 * await refuseUntradableKind(chain, token, "sold by an auto-sell rule");
 */
export const refuseUntradableKind = async (
  chain: ChainContext | undefined,
  token: Address,
  doing: string,
): Promise<void> => {
  if (!chain?.launchpad || !chain.trade) return;
  const { refusal } = await getTokenKind(chain.client, {
    helper: chain.trade.helper,
    launchpad: chain.launchpad,
    token,
  });
  if (refusal) throw new BadRequestError(`Token ${token} cannot be ${doing}: ${refusal}`);
};
