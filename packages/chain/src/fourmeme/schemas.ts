import { getAddress, type Hex } from "viem";
import { z } from "zod";

/** Every four.meme answer: `{code, msg, data}`, `code` 0 (or "0") on success. */
export const envelopeSchema = z.object({
  code: z.union([z.number(), z.string()]).transform(String),
  msg: z.string().nullish(),
  data: z.unknown(),
});

export const nonceSchema = z.union([z.string().min(1), z.number()]).transform(String);

export const accessTokenSchema = z.string().min(1);

export const imgUrlSchema = z.url();

export const raisedTokenSchema = z.looseObject({
  symbol: z.string(),
  status: z.string().optional(),
});

/**
 * Bytes as four.meme's API may give them, normalised to `0x...`: hex with or without `0x`, or
 * base64, read the way its CLI's `toHex` reads them (four-meme-ai create-token-api.ts: `0x…`
 * as is, only hex digits as hex, anything else as base64).
 */
const bytesSchema = z.string().transform((value, ctx) => {
  if (/^0x([0-9a-fA-F]{2})+$/.test(value)) return value as Hex;
  if (/^([0-9a-fA-F]{2})+$/.test(value)) return `0x${value}` as Hex;
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(value) && value.length % 4 === 0)
    return `0x${Buffer.from(value, "base64").toString("hex")}` as Hex;
  ctx.addIssue({ code: "custom", message: "expected hex or base64 bytes" });
  return z.NEVER;
});

export const createArgsSchema = z.object({ createArg: bytesSchema, signature: bytesSchema });

export const addressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "expected an address")
  .transform((value) => getAddress(value));

export const publicTokenInfoSchema = z.looseObject({
  address: addressSchema,
  name: z.string(),
  shortName: z.string(),
  image: z.string().nullish(),
  status: z.string().nullish(),
  webUrl: z.string().nullish(),
  twitterUrl: z.string().nullish(),
  telegramUrl: z.string().nullish(),
  /** Where the token trades once it has left the curve, when four.meme gives one. */
  tradeUrl: z.string().nullish(),
});
