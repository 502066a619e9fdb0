import { z } from "zod";
import { defineRoute } from "./common.ts";
import { DISPERSAL_STATUSES } from "./disperse.ts";
import { addressSchema, bnbValueSchema } from "./money.ts";

/** Past dispersals shown per page on the disperser. */
export const DISPERSALS_PAGE_SIZE = 10;

/** One of the user's dispersals, as the disperser's history lists it. */
export const dispersalSummarySchema = z.object({
  /** Its receiver address, the id the status and log routes take. */
  dispersalId: addressSchema,
  status: z.enum(DISPERSAL_STATUSES),
  /** What the destinations receive in all, BNB (the amounts sent, buffers included). */
  total: bnbValueSchema,
  /** What the receiver was asked: the total plus the gas of every transfer, BNB. */
  amount: bnbValueSchema,
  walletCount: z.number().int().min(0),
  antiBubblemaps: z.boolean(),
  createdAt: z.string(),
});
export type DispersalSummary = z.infer<typeof dispersalSummarySchema>;

/** `GET /wallets/disperse/list?page=`: the caller's dispersals, newest first, 10 a page. */
export const listDispersalsRoute = defineRoute({
  method: "GET",
  path: "/api/wallets/disperse/list",
  access: "user",
  query: z.object({
    page: z
      .string()
      .regex(/^[1-9]\d{0,5}$/, "page must be a whole number from 1 up")
      .transform(Number)
      .optional(),
  }),
  body: undefined,
  response: z.object({
    success: z.literal(true),
    dispersals: z.array(dispersalSummarySchema),
    total: z.number().int().min(0),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
  }),
});

/** One line of a dispersal's transaction log, with when it happened. */
export const dispersalLogLineSchema = z.object({
  at: z.string(),
  message: z.string(),
});
export type DispersalLogLine = z.infer<typeof dispersalLogLineSchema>;

/**
 * `GET /wallets/disperse/log?dispersalId=`: the dispersal's transaction log so far, oldest
 * first, rebuilt from what it recorded (its funding, every finished transfer, its outcome),
 * in the words the live `dispersal_status_{key}` lines use: a page reloaded mid-dispersal
 * shows the lines it missed.
 */
export const dispersalLogRoute = defineRoute({
  method: "GET",
  path: "/api/wallets/disperse/log",
  access: "user",
  query: z.object({ dispersalId: addressSchema }),
  owned: [{ in: "query", field: "dispersalId", object: "dispersal" }],
  body: undefined,
  response: z.object({
    success: z.literal(true),
    lines: z.array(dispersalLogLineSchema),
  }),
});
