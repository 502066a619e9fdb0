import type { LocalAccount } from "viem";
import { requestFourMeme } from "./requestFourMeme.ts";
import { accessTokenSchema, nonceSchema } from "./schemas.ts";
import type { FourMemeClient } from "./types.ts";

export interface LoginFourMemeParameters {
  /** The deployer; it signs four.meme's login message. */
  account: LocalAccount;
}

/** The access token, to send as `meme-web-access`. */
export type LoginFourMemeReturnType = string;

/** The text four.meme asks the wallet to personal_sign. */
export const fourMemeLoginMessage = (nonce: string) => `You are sign in Meme ${nonce}`;

/**
 * Logs the deployer in (nonce, personal_sign, login) and caches the access token
 * on the client for the other actions.
 *
 * @example
 * const accessToken = await loginFourMeme(client, { account: privateKeyToAccount(key) });
 */
export const loginFourMeme = async (
  client: FourMemeClient,
  { account }: LoginFourMemeParameters,
): Promise<LoginFourMemeReturnType> => {
  const nonce = await requestFourMeme(client, {
    method: "POST",
    path: "/private/user/nonce/generate",
    body: { accountAddress: account.address, verifyType: "LOGIN", networkCode: "BSC" },
    schema: nonceSchema,
  });
  const signature = await account.signMessage({ message: fourMemeLoginMessage(nonce) });
  const accessToken = await requestFourMeme(client, {
    method: "POST",
    path: "/private/user/login/dex",
    body: {
      region: "WEB",
      langType: "EN",
      verifyInfo: { address: account.address, networkCode: "BSC", signature, verifyType: "LOGIN" },
      walletName: "MetaMask",
    },
    schema: accessTokenSchema,
  });
  client.sessions.set(account.address.toLowerCase(), accessToken);
  return accessToken;
};
