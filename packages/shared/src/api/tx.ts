import { z } from "zod";
import { isValidAddress } from "../constants.ts";
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
  reads: true,
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
        /**
         * What a mined sale sold (tokens, smallest units) and what its seller received (BNB,
         * after the trading fee); null for any other transaction, or one not mined yet.
         */
        sale: z
          .object({ tokens: z.string().regex(/^\d+$/), bnb: bnbValueSchema })
          .nullable()
          .optional(),
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
  params: z.object({ hash: txHashSchema }),
  body: undefined,
  response: z.object({ success: z.literal(true), transaction: transactionSchema }),
});

const addressParams = z.object({
  address: z
    .string()
    .trim()
    .refine(
      isValidAddress,
      "Invalid address: expected 0x followed by 40 hex digits (checksummed when mixed-case)",
    ),
});

/** Transactions of the caller's one address page lists at most. */
export const MAX_ADDRESS_TXS = 50;

export const addressInfoSchema = z.object({
  /** Checksummed. */
  address: addressSchema,
  /** BNB. */
  balance: bnbValueSchema,
  /** Transactions it sent (its next nonce). */
  nonce: z.number().int(),
  isContract: z.boolean(),
  /** Set when the address is a token the launchpad created. */
  token: z
    .object({
      name: z.string(),
      symbol: z.string(),
      /** Whole tokens, a decimal string. */
      totalSupply: z.string(),
      /** It trades on the DEX, no longer on the bonding curve. */
      graduated: z.boolean(),
    })
    .nullable(),
  /**
   * The caller's transactions the server sent from or to this address (its own records),
   * newest first, at most MAX_ADDRESS_TXS.
   */
  transactions: z.array(
    z.object({
      hash: z.string(),
      purpose: z.string(),
      /** The transaction manager's status: signed, sent, mined, reverted, replaced, dropped. */
      status: z.string(),
      blockNumber: z.string().nullable(),
      from: addressSchema,
      to: addressSchema.nullable(),
    }),
  ),
});
export type AddressInfo = z.infer<typeof addressInfoSchema>;

/**
 * One address as the chain knows it, with the caller's transactions the server sent from or to
 * it: the app's own address page, where addresses link on a chain without a block explorer.
 */
export const getAddressRoute = defineRoute({
  method: "GET",
  path: "/api/tx/address/:address",
  access: "user",
  params: addressParams,
  body: undefined,
  response: z.object({ success: z.literal(true), address: addressInfoSchema }),
});
