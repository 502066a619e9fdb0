import { FourMemeAuthExpiredError } from "./errors.ts";
import { loginFourMeme } from "./loginFourMeme.ts";
import type { FourMemeAuth, FourMemeClient } from "./types.ts";

/**
 * Runs an authenticated call. With an account it reuses the cached token (or
 * logs in), and when four.meme says the token expired it logs in again once and
 * retries; a second expiry in a row is thrown. A bare token is used as is.
 */
export const withAccessToken = async <result>(
  client: FourMemeClient,
  auth: FourMemeAuth,
  call: (accessToken: string) => Promise<result>,
): Promise<result> => {
  if ("accessToken" in auth) return call(auth.accessToken);
  const { account } = auth;
  const cached = client.sessions.get(account.address.toLowerCase());
  const accessToken = cached ?? (await loginFourMeme(client, { account }));
  try {
    return await call(accessToken);
  } catch (error) {
    if (!(error instanceof FourMemeAuthExpiredError)) throw error;
    client.sessions.delete(account.address.toLowerCase());
    return call(await loginFourMeme(client, { account }));
  }
};
