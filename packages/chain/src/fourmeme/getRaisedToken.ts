import { z } from "zod";
import { FourMemeResponseError } from "./errors.ts";
import { requestFourMeme } from "./requestFourMeme.ts";
import { raisedTokenSchema } from "./schemas.ts";
import type { FourMemeClient, FourMemeRaisedToken } from "./types.ts";

export interface GetRaisedTokenParameters {
  /** The currency the curve raises; defaults to BNB. */
  symbol?: string;
}

export type GetRaisedTokenReturnType = FourMemeRaisedToken;

const path = "/public/config";

/**
 * The raise configuration for one currency from `GET /public/config`, to copy
 * unmodified into the create request. Published entries win over others.
 *
 * @example
 * const raisedToken = await getRaisedToken(client);
 */
export const getRaisedToken = async (
  client: FourMemeClient,
  { symbol = "BNB" }: GetRaisedTokenParameters = {},
): Promise<GetRaisedTokenReturnType> => {
  const config = await requestFourMeme(client, {
    method: "GET",
    path,
    schema: z.array(raisedTokenSchema),
  });
  const matching = config.filter((entry) => entry.symbol === symbol);
  const found = matching.find((entry) => entry.status === "PUBLISH") ?? matching[0];
  if (!found) {
    throw new FourMemeResponseError({ path, reason: `No raised token "${symbol}" in the config.` });
  }
  return found;
};
