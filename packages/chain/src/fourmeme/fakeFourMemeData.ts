import { concat, type Hex, keccak256, stringToHex } from "viem";
import { z } from "zod";
import type { FakeCreateRequest } from "./fakeFourMemeServer.ts";
import { addressSchema } from "./schemas.ts";
import { type FourMemeCreateArgs, fourMemeLabels } from "./types.ts";

/** What the fake four.meme server checks and answers with. */

/** The image format, when both the declared type and the first bytes say image. */
export const imageKind = (type: string, bytes: Uint8Array) => {
  if (!type.startsWith("image/")) return undefined;
  const starts = (...prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return "png";
  if (starts(0xff, 0xd8, 0xff)) return "jpg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "gif";
  if (starts(0x42, 0x4d)) return "bmp";
  const webp = [0x57, 0x45, 0x42, 0x50].every((byte, i) => bytes[8 + i] === byte);
  if (starts(0x52, 0x49, 0x46, 0x46) && webp) return "webp";
  return undefined;
};

export const deterministicCreateArgs = ({
  creator,
  body,
}: FakeCreateRequest): FourMemeCreateArgs => {
  const createArg = keccak256(
    stringToHex(
      JSON.stringify([creator, body.name, body.shortName, body.launchTime, body.preSale]),
    ),
  );
  const digest = keccak256(createArg);
  const signature: Hex = concat([digest, keccak256(digest), "0x1b"]);
  return { createArg, signature };
};

export const nonceBodySchema = z.object({
  accountAddress: addressSchema,
  verifyType: z.literal("LOGIN"),
  networkCode: z.literal("BSC"),
});

export const loginBodySchema = z.object({
  region: z.string(),
  langType: z.string(),
  walletName: z.string(),
  verifyInfo: z.object({
    address: addressSchema,
    networkCode: z.literal("BSC"),
    verifyType: z.literal("LOGIN"),
    signature: z
      .string()
      .regex(/^0x[0-9a-fA-F]+$/)
      .transform((value) => value as Hex),
  }),
});

/** A social link: sent only when there is one (four-meme-ai create-token-api.ts). */
const linkSchema = z.string().min(1, "leave an empty link out").optional();

/** What four.meme's official create script sends (four-meme-ai create-token-api.ts). */
export const createBodySchema = z.looseObject({
  name: z.string().min(1),
  shortName: z.string().min(1),
  desc: z.string(),
  imgUrl: z.string(),
  launchTime: z.number().int().positive(),
  label: z.enum(fourMemeLabels),
  lpTradingFee: z.literal(0.0025),
  webUrl: linkSchema,
  twitterUrl: linkSchema,
  telegramUrl: linkSchema,
  preSale: z.string().regex(/^\d+(\.\d+)?$/),
  feePlan: z.boolean(),
  raisedToken: z.looseObject({ symbol: z.string() }),
  dexType: z.literal("PANCAKE_SWAP"),
  rushMode: z.boolean(),
  onlyMPC: z.boolean(),
  clickFun: z.boolean(),
  funGroup: z.boolean(),
  /** Only for a tax token; refused as four.meme documents its rules (create guide §3.4). */
  tokenTaxInfo: z
    .looseObject({
      feeRate: z.union([z.literal(1), z.literal(3), z.literal(5), z.literal(10)]),
      burnRate: z.number().int().min(0),
      divideRate: z.number().int().min(0),
      liquidityRate: z.number().int().min(0),
      recipientRate: z.number().int().min(0),
      recipientAddress: z.union([z.literal(""), addressSchema]),
      minSharing: z.number().refine((n) => /^[1-9]0{5,}$/.test(String(n)), "d × 10^n, n ≥ 5"),
    })
    .refine(
      (t) => t.burnRate + t.divideRate + t.liquidityRate + t.recipientRate === 100,
      "the four rates must sum to 100",
    )
    .refine(
      (t) => (t.recipientRate === 0) === (t.recipientAddress === ""),
      'recipientAddress is "" exactly when recipientRate is 0',
    )
    .optional(),
});

/** Modelled on the entries four.meme's `GET /public/config` lists. */
export const defaultRaisedTokens: Record<string, unknown>[] = [
  {
    symbol: "USDT",
    nativeSymbol: "USDT",
    symbolAddress: "0x55d398326f99059fF775485246999027B3197955",
    totalBAmount: "12000",
    totalAmount: "1000000000",
    saleRate: "0.8",
    networkCode: "BSC",
    status: "PUBLISH",
  },
  {
    symbol: "BNB",
    nativeSymbol: "BNB",
    symbolAddress: "0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c",
    deployCost: "0",
    buyFee: "0.01",
    sellFee: "0.01",
    minTradeFee: "0",
    b0Amount: "8",
    totalBAmount: "24",
    totalAmount: "1000000000",
    saleRate: "0.8",
    reservedNumber: 10,
    networkCode: "BSC",
    platform: "MEME",
    status: "PUBLISH",
  },
];
