import type { FourMemeClient } from "./types.ts";

export const fourMemeBaseUrl = "https://four.meme/meme-api/v1";

export interface CreateFourMemeClientParameters {
  /** Defaults to four.meme's mainnet API; tests point it at the fake server. */
  baseUrl?: string;
  /** Milliseconds per request, answer included; defaults to 15 s. */
  timeout?: number;
}

export type CreateFourMemeClientReturnType = FourMemeClient;

/**
 * A client for four.meme's HTTP API. It keeps each deployer's access token so
 * later calls skip the login until four.meme says the token expired.
 *
 * @example
 * const client = createFourMemeClient();
 * const { createArg, signature } = await createFourMemeLaunchArgs(client, { account, token, image });
 */
export const createFourMemeClient = (
  params: CreateFourMemeClientParameters = {},
): CreateFourMemeClientReturnType => ({
  baseUrl: (params.baseUrl ?? fourMemeBaseUrl).replace(/\/+$/, ""),
  timeout: params.timeout ?? 15_000,
  sessions: new Map(),
});
