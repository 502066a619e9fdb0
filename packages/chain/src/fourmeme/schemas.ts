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

/** Hex with or without `0x`, normalised to `0x...`. */
const hexSchema = z
  .string()
  .regex(/^(0x)?([0-9a-fA-F]{2})+$/, "expected hex bytes")
  .transform((value) => (value.startsWith("0x") ? value : `0x${value}`) as Hex);

export const createArgsSchema = z.object({ createArg: hexSchema, signature: hexSchema });

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
