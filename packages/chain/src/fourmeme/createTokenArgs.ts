import { requestFourMeme } from "./requestFourMeme.ts";
import { createArgsSchema } from "./schemas.ts";
import type {
  FourMemeAuth,
  FourMemeClient,
  FourMemeCreateArgs,
  FourMemeRaisedToken,
  FourMemeTokenDraft,
} from "./types.ts";
import { withAccessToken } from "./withAccessToken.ts";

export type CreateTokenArgsParameters = FourMemeAuth & {
  token: FourMemeTokenDraft;
  /** From `uploadTokenImage`; four.meme refuses images it does not host. */
  imgUrl: string;
  /** From `getRaisedToken`, unmodified. */
  raisedToken: FourMemeRaisedToken;
};

export type CreateTokenArgsReturnType = FourMemeCreateArgs;

/**
 * Asks four.meme to sign the token's creation; the answer is the `args` and
 * `signature` of TokenManager2's `createToken(bytes args, bytes signature)`.
 *
 * @example
 * const { createArg, signature } = await createTokenArgs(client, { account, token, imgUrl, raisedToken });
 */
export const createTokenArgs = (
  client: FourMemeClient,
  { token, imgUrl, raisedToken, ...auth }: CreateTokenArgsParameters,
): Promise<CreateTokenArgsReturnType> => {
  const body = createTokenBody(token, imgUrl, raisedToken);
  return withAccessToken(client, auth, (accessToken) =>
    requestFourMeme(client, {
      method: "POST",
      path: "/private/token/create",
      body,
      accessToken,
      schema: createArgsSchema,
    }),
  );
};

/**
 * What four.meme's official create script sends (four-meme-ai create-token-api.ts): the
 * documented fields, the raise parameters taken from the raised-token config (so they agree),
 * `dexType` PANCAKE_SWAP and the flags it sets false. Social links it leaves out when empty,
 * `tokenTaxInfo` when not set. `feePlan` (anti-sniper fee mode) is always off: its fee is
 * highest in a token's first blocks, where a bundled launch's own buys land.
 */
const createTokenBody = (
  token: FourMemeTokenDraft,
  imgUrl: string,
  raisedToken: FourMemeRaisedToken,
) => ({
  name: token.name,
  shortName: token.shortName,
  desc: token.desc,
  totalSupply: numberOr(raisedToken.totalAmount, 1_000_000_000),
  raisedAmount: numberOr(raisedToken.totalBAmount, 24),
  saleRate: numberOr(raisedToken.saleRate, 0.8),
  reserveRate: 0,
  imgUrl,
  raisedToken,
  launchTime: token.launchTime ?? Date.now(),
  funGroup: false,
  label: token.label,
  lpTradingFee: 0.0025,
  preSale: token.preSale ?? "0",
  clickFun: false,
  symbol: raisedToken.symbol,
  dexType: "PANCAKE_SWAP",
  rushMode: false,
  onlyMPC: false,
  feePlan: false,
  ...link("webUrl", token.webUrl),
  ...link("twitterUrl", token.twitterUrl),
  ...link("telegramUrl", token.telegramUrl),
  ...(token.tokenTaxInfo ? { tokenTaxInfo: token.tokenTaxInfo } : {}),
});

/** A social link as its own field, or nothing when it is empty. */
const link = (name: string, url: string | undefined) => (url?.trim() ? { [name]: url.trim() } : {});

const numberOr = (value: unknown, fallback: number) => {
  const parsed = typeof value === "number" ? value : Number(value);
  return typeof value !== "boolean" && value !== "" && Number.isFinite(parsed) ? parsed : fallback;
};
