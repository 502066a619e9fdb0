import type { Address } from "viem";
import { FourMemeError } from "./errors.ts";
import { requestFourMeme } from "./requestFourMeme.ts";
import { publicTokenInfoSchema } from "./schemas.ts";
import type { FourMemeClient, FourMemePublicTokenInfo } from "./types.ts";

export interface GetPublicTokenInfoParameters {
  address: Address;
  /** Called with the reason whenever the answer is null, so the caller can log it. */
  onError?: (error: FourMemeError) => void;
}

/** Null when four.meme does not know the token or could not be asked. */
export type GetPublicTokenInfoReturnType = FourMemePublicTokenInfo | null;

/**
 * The token as four.meme shows it (image, status, links). Never throws a
 * four.meme error: the spec wants these failures logged and ignored.
 *
 * @example
 * const info = await getPublicTokenInfo(client, { address, onError: (e) => log.warn(e.message) });
 */
export const getPublicTokenInfo = async (
  client: FourMemeClient,
  { address, onError }: GetPublicTokenInfoParameters,
): Promise<GetPublicTokenInfoReturnType> => {
  try {
    return await requestFourMeme(client, {
      method: "GET",
      path: "/private/token/get",
      query: { address },
      schema: publicTokenInfoSchema.nullable(),
    });
  } catch (error) {
    if (!(error instanceof FourMemeError)) throw error;
    onError?.(error);
    return null;
  }
};
