import { randomBytes } from "node:crypto";
import {
  ChainError,
  createTokenArgs,
  FourMemeAuthExpiredError,
  type FourMemeError,
  FourMemeHttpError,
  type FourMemeImage,
  FourMemeImageRefusedError,
  FourMemeResponseError,
  FourMemeTimeoutError,
  getRaisedToken,
  keyAccount,
  loginFourMeme,
  uploadTokenImage,
} from "@bundler/chain";
import { encodeCreateTokenArgs, signCreateTokenArgs, taxTokenConfigOf } from "@bundler/contracts";
import { bnbWords, type TokenInfo } from "@bundler/shared";
import { type Hex, type LocalAccount, parseEther } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";

export interface CreateArgs {
  createArg: Hex;
  signature: Hex;
  /**
   * The creation fee four.meme's raise config lists (`deployCost`), null when it lists none or
   * the args came from the local signer: only a cross-check of the launchpad's `_launchFee()`,
   * which is what the create sends.
   */
  listedLaunchFee: bigint | null;
}

/**
 * createToken's signed arguments: from four.meme's API when the chain has a four.meme client
 * (login, logo upload, raise config, create), otherwise from the local launch signer.
 * Streams each step through `say`.
 */
export const createArgsFor = async (
  chain: ChainContext,
  params: { creator: LocalAccount; tokenInfo: TokenInfo; say: (message: string) => void },
): Promise<CreateArgs> => {
  if (chain.fourMeme) return fromFourMeme(chain, params);
  if (!chain.launchSignerKey || !chain.launchpad)
    throw new ChainError(
      `launching on ${chain.profile.name} needs four.meme's API: set FOUR_MEME_API_URL`,
    );
  const { creator, tokenInfo, say } = params;
  const createArg = encodeCreateTokenArgs({
    name: tokenInfo.name,
    symbol: tokenInfo.symbol,
    launchTime: 0n,
    requestId: BigInt(`0x${randomBytes(16).toString("hex")}`),
    preSale: parseEther(tokenInfo.preSale || "0"),
    creator: creator.address,
    // What four.meme's backend does with tokenTaxInfo (create guide §3.4): a type-5 tax token.
    ...(tokenInfo.tokenTaxInfo ? { tax: taxTokenConfigOf(tokenTaxInfo(tokenInfo)) } : {}),
  });
  const signature = await signCreateTokenArgs({
    signer: keyAccount(chain.launchSignerKey),
    chainId: chain.chainId,
    launchpad: chain.launchpad,
    args: createArg,
  });
  say("PASSED createToken arguments signed by the launch signer");
  return { createArg, signature, listedLaunchFee: null };
};

const fromFourMeme = async (
  chain: ChainContext,
  { creator, tokenInfo, say }: Parameters<typeof createArgsFor>[1],
): Promise<CreateArgs> => {
  const client = chain.fourMeme;
  if (!client) throw new ChainError("four.meme is not configured");
  const image = decodeLogo(tokenInfo.image);
  say(`Logging in to four.meme as the deployer ${creator.address}...`);
  await loginFourMeme(client, { account: creator });
  say(`PASSED logged in to four.meme as ${creator.address}`);
  const imgUrl = await uploadTokenImage(client, { account: creator, image });
  say(`PASSED logo uploaded to four.meme: ${imgUrl}`);
  const raisedToken = await getRaisedToken(client);
  const listedLaunchFee = feeOf(raisedToken.deployCost);
  say(
    `PASSED four.meme raise config: ${raisedToken.symbol}${listedLaunchFee === null ? "" : `, listed creation fee ${bnb(listedLaunchFee)}`}`,
  );
  const { createArg, signature } = await createTokenArgs(client, {
    account: creator,
    token: {
      name: tokenInfo.name,
      shortName: tokenInfo.symbol,
      desc: tokenInfo.description,
      label: tokenInfo.tag,
      webUrl: tokenInfo.website,
      twitterUrl: tokenInfo.twitter,
      telegramUrl: tokenInfo.telegram,
      preSale: tokenInfo.preSale || "0",
      ...(tokenInfo.tokenTaxInfo ? { tokenTaxInfo: tokenTaxInfo(tokenInfo) } : {}),
    },
    imgUrl,
    raisedToken,
  });
  say("PASSED createToken arguments received from four.meme");
  return { createArg, signature, listedLaunchFee };
};

const bnb = bnbWords;

/**
 * The draft's tax settings as four.meme's create API takes `tokenTaxInfo` (create guide §3.4):
 * `recipientAddress` "" when the recipient's share is 0, whatever the form held.
 */
export const tokenTaxInfo = (tokenInfo: TokenInfo) => {
  const tax = tokenInfo.tokenTaxInfo;
  if (!tax) throw new ChainError("the draft is not a tax token");
  return { ...tax, recipientAddress: tax.recipientRate > 0 ? tax.recipientAddress : "" };
};

/** A decimal BNB amount from the raise config (`deployCost`), or null when it has none. */
export const feeOf = (value: unknown): bigint | null => {
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !/^\d+(\.\d{1,18})?$/.test(text.trim())) return null;
  return parseEther(text.trim());
};

const SIGNATURES: Array<{ bytes: number[]; offset?: number; mime: string; ext: string }> = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], mime: "image/png", ext: "png" },
  { bytes: [0xff, 0xd8, 0xff], mime: "image/jpeg", ext: "jpg" },
  { bytes: [0x47, 0x49, 0x46, 0x38], mime: "image/gif", ext: "gif" },
  { bytes: [0x57, 0x45, 0x42, 0x50], offset: 8, mime: "image/webp", ext: "webp" },
  { bytes: [0x42, 0x4d], mime: "image/bmp", ext: "bmp" },
];

/** The draft's logo (a data URL or bare base64) as the file four.meme wants uploaded. */
export const decodeLogo = (image: string): FourMemeImage => {
  const match = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(image.trim());
  const bytes = new Uint8Array(Buffer.from(match ? (match[3] ?? "") : image.trim(), "base64"));
  if (bytes.length === 0)
    throw new ChainError("the draft's logo could not be read: edit the draft and upload it again");
  const known = SIGNATURES.find((s) => s.bytes.every((b, i) => bytes[(s.offset ?? 0) + i] === b));
  const declared = match?.[1] || "";
  const mimeType = declared.startsWith("image/") ? declared : (known?.mime ?? "image/png");
  const ext = known?.ext ?? (mimeType.split("/")[1] || "png");
  return { bytes, mimeType, fileName: `logo.${ext}` };
};

const LOGIN_PATHS = ["/private/user/nonce/generate", "/private/user/login/dex"];

/** A four.meme failure in words a user understands, with what to do about it. */
export const describeFourMemeError = (error: FourMemeError): string => {
  if (error instanceof FourMemeImageRefusedError)
    return `four.meme refused the logo: ${error.msg}. Edit the draft, upload another image (PNG, JPEG, GIF or WebP, under 5 MB) and execute again`;
  if (error instanceof FourMemeAuthExpiredError)
    return `four.meme ended the deployer's login session again right after a new login (${error.msg}); wait a minute and execute again`;
  if (error instanceof FourMemeTimeoutError)
    return `four.meme did not answer within ${error.timeout / 1000} s; it may be busy: execute again in a minute`;
  if (error instanceof FourMemeResponseError)
    return "four.meme answered in a form this server does not understand (its API may have changed); nothing was sent on chain";
  if (error instanceof FourMemeHttpError) {
    if (error.status === null)
      return `four.meme could not be reached (${error.msg}); check this server's connection and FOUR_MEME_API_URL, then execute again`;
    if (LOGIN_PATHS.includes(error.path))
      return `four.meme refused the deployer's login: ${error.msg}`;
    return `four.meme refused to create the token: ${error.msg}`;
  }
  return error.shortMessage;
};
