import { z } from "zod";
import { defineRoute } from "./common.ts";
import { addressSchema, bnbValueSchema } from "./money.ts";

export const TX_HASH_PATTERN = /^0x[0-9a-fA-F]{64}$/;
export const txHashSchema = z.string().trim().regex(TX_HASH_PATTERN, "Invalid transaction hash");

/** Hashes one status call may ask about. */
export const MAX_TX_STATUS_HASHES = 200;

export const TX_STATUSES = ["pending", "success", "failed", "error"] as const;

/**
 * SPEC §7 `POST /bundle/tx/status`: where each transaction stands. `error` is a hash the node
 * does not know at all (dropped, or never sent).
 */
export const txStatusRoute = defineRoute({
  method: "POST",
  path: "/api/bundle/tx/status",
  access: "user",
  body: z.object({
    txHashes: z
      .array(txHashSchema)
      .min(1, "No transaction hashes given")
      .max(MAX_TX_STATUS_HASHES, `At most ${MAX_TX_STATUS_HASHES} hashes per call`),
  }),
  response: z.object({
    success: z.literal(true),
    statuses: z.array(
      z.object({
        hash: z.string(),
        status: z.enum(TX_STATUSES),
        blockNumber: z.string().nullable(),
        /** Why a failed transaction reverted, in words. */
        reason: z.string().nullable(),
      }),
    ),
  }),
});
export type TxStatusEntry = z.infer<typeof txStatusRoute.response>["statuses"][number];

export const transactionSchema = z.object({
  hash: z.string(),
  status: z.enum(TX_STATUSES),
  blockNumber: z.string().nullable(),
  /** ISO time of its block; null while pending. */
  timestamp: z.string().nullable(),
  from: addressSchema,
  /** null for a contract creation. */
  to: addressSchema.nullable(),
  value: bnbValueSchema,
  nonce: z.number().int(),
  /** What it paid for gas, BNB; null while pending. */
  fee: bnbValueSchema.nullable(),
  reason: z.string().nullable(),
});
export type Transaction = z.infer<typeof transactionSchema>;

/**
 * One transaction as the chain knows it: the app's own transaction page, which is where hashes
 * link on a chain without a block explorer (the local chain).
 */
export const getTransactionRoute = defineRoute({
  method: "GET",
  path: "/api/tx/:hash",
  access: "user",
  body: undefined,
  response: z.object({ success: z.literal(true), transaction: transactionSchema }),
});
