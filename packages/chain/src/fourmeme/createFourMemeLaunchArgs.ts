import type { LocalAccount } from "viem";
import { createTokenArgs } from "./createTokenArgs.ts";
import { getRaisedToken } from "./getRaisedToken.ts";
import type {
  FourMemeClient,
  FourMemeCreateArgs,
  FourMemeImage,
  FourMemeTokenDraft,
} from "./types.ts";
import { uploadTokenImage } from "./uploadTokenImage.ts";

export interface CreateFourMemeLaunchArgsParameters {
  /** The deployer: it logs in, and must be the one that later sends `createToken`. */
  account: LocalAccount;
  token: FourMemeTokenDraft;
  image: FourMemeImage;
}

export type CreateFourMemeLaunchArgsReturnType = FourMemeCreateArgs & {
  /** Where four.meme now hosts the image. */
  imgUrl: string;
};

/**
 * The whole mainnet four.meme step of a launch: log in (or reuse the cached
 * token), upload the image, read the BNB raise config, and get the signed
 * create arguments for `createToken(bytes args, bytes signature)`.
 *
 * @example
 * const client = createFourMemeClient();
 * const { createArg, signature } = await createFourMemeLaunchArgs(client, {
 *   account: privateKeyToAccount(deployerKey),
 *   token: { name: "Moon Cat", shortName: "MCAT", desc: "A cat.", label: "Meme", preSale: "0.1" },
 *   image: { bytes, mimeType: "image/png", fileName: "logo.png" },
 * });
 */
export const createFourMemeLaunchArgs = async (
  client: FourMemeClient,
  { account, token, image }: CreateFourMemeLaunchArgsParameters,
): Promise<CreateFourMemeLaunchArgsReturnType> => {
  const imgUrl = await uploadTokenImage(client, { account, image });
  const raisedToken = await getRaisedToken(client);
  const args = await createTokenArgs(client, { account, token, imgUrl, raisedToken });
  return { ...args, imgUrl };
};
