import { PNL_KINDS, PNL_ROLES } from "@bundler/shared";
import {
  bigint,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

const wei = (name: string) => numeric(name, { precision: 78, scale: 0 });

/**
 * A launched bundle's P&L ledger (modules/pnl): what the chain says each of its transactions
 * cost or returned, one row per (transaction, log, kind, wallet), appended by the per-block
 * pass. Log index -1 is a receipt's gas, -2 the value a transaction moved (a tip, an empty),
 * and below -100 the figures that are no one log's (a wallet's balance before the launch).
 * The key makes appending idempotent: a pass that runs twice adds nothing.
 */
export const pnlLedger = pgTable(
  "pnl_ledger",
  {
    /** The bundle's token, lower case. */
    token: text("token").notNull(),
    /** The transaction (or, for the launch fee, the payment's deposit) the line comes from. */
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    kind: text("kind", { enum: PNL_KINDS }).notNull(),
    /** Who paid or received it, lower case. */
    wallet: text("wallet").notNull(),
    role: text("role", { enum: PNL_ROLES }).notNull(),
    bnb: wei("bnb").notNull(),
    /** Tokens bought or sold by the line (smallest units); 0 for the rest. */
    tokens: wei("tokens").notNull().default("0"),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    blockTime: timestamp("block_time", { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.token, table.txHash, table.logIndex, table.kind, table.wallet] }),
    // "Is this transaction in the ledger yet": the pass's one check per block.
    index("pnl_ledger_tx_idx").on(table.txHash),
  ],
);

/**
 * The exit value (every wallet's tokens sold in one simulated block) when the pass appended a
 * bundle's lines at a block: the chart's exit line at each event.
 */
export const pnlMarks = pgTable(
  "pnl_marks",
  {
    token: text("token").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    exitWei: wei("exit_wei").notNull(),
  },
  (table) => [primaryKey({ columns: [table.token, table.blockNumber] })],
);
