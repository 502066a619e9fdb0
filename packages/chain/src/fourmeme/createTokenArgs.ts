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
 * The documented fields, plus the raise parameters four.meme's own web app
 * sends alongside them (taken from the raised-token config, so they agree).
 */
const createTokenBody = (
  token: FourMemeTokenDraft,
  imgUrl: string,
  raisedToken: FourMemeRaisedToken,
) => ({
  name: token.name,
  shortName: token.shortName,
  desc: token.desc,
  imgUrl,
  launchTime: token.launchTime ?? Date.now(),
  label: token.label,
  lpTradingFee: 0.0025,
  webUrl: token.webUrl ?? "",
  twitterUrl: token.twitterUrl ?? "",
  telegramUrl: token.telegramUrl ?? "",
  preSale: token.preSale ?? "0",
  feePlan: token.feePlan ?? false,
  raisedToken,
  symbol: raisedToken.symbol,
  totalSupply: numberOr(raisedToken.totalAmount, 1_000_000_000),
  raisedAmount: numberOr(raisedToken.totalBAmount, 24),
  saleRate: numberOr(raisedToken.saleRate, 0.8),
  reserveRate: 0,
  onlyMPC: false,
  clickFun: false,
  funGroup: false,
});

const numberOr = (value: unknown, fallback: number) => {
  const parsed = typeof value === "number" ? value : Number(value);
  return typeof value !== "boolean" && value !== "" && Number.isFinite(parsed) ? parsed : fallback;
};
