import { AUTOSELL_FIRING_STATES, AUTOSELL_STATES } from "@bundler/shared";
import {
  bigint,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./schema.ts";

const wei = (name: string) => numeric(name, { precision: 78, scale: 0 });

/**
 * A user's auto-sell rules (modules/autosell): a trigger and what to sell when it fires, on one
 * of their launched bundles. The per-block pass reads the armed ones; a firing is decided under
 * the rule's row lock and recorded (autosell_firings) before anything is signed.
 */
export const autosellRules = pgTable(
  "autosell_rules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id),
    /** The bundle's token, lower case. */
    token: text("token").notNull(),
    state: text("state", { enum: AUTOSELL_STATES }).notNull().default("armed"),
    /** The request's trigger, action and execution, as validated (defaults filled in). */
    trigger: jsonb("trigger"),
    action: jsonb("action").notNull(),
    execution: jsonb("execution").notNull(),
    /** The last pass's reading of every condition. */
    reading: jsonb("reading"),
    /** Trailing stops: the highest exit value per whole token held since arming, wei. */
    peakWei: wei("peak_wei"),
    /** The block the rule was armed (or last resumed) at: windows and time triggers start there. */
    armedBlock: bigint("armed_block", { mode: "bigint" }),
    /**
     * One more at every edit of the trigger, action or execution: the pass decides a firing only
     * on the version it read, so an edit made meanwhile is read again next block.
     */
    version: integer("version").notNull().default(1),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("autosell_rules_token_state_idx").on(table.token, table.state),
    index("autosell_rules_owner_state_idx").on(table.ownerId, table.state),
  ],
);

/**
 * A rule's firing (a ladder's: one per tier): the decision, recorded before any sale is signed,
 * so it is made once whatever happens after; then its waves of sales, each through the
 * transaction manager with keys of (rule, tier, wave, wallet). `state` is "selling" until the
 * last wave is sent; a process that dies halfway leaves it for the next pass to finish.
 */
export const autosellFirings = pgTable(
  "autosell_firings",
  {
    ruleId: uuid("rule_id")
      .notNull()
      .references(() => autosellRules.id),
    tier: integer("tier").notNull(),
    /** The block whose state met the trigger. */
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    reading: jsonb("reading").notNull(),
    /** Percent of each wallet's holdings now to sell (a decimal string: a ladder's share of what is left). */
    percent: text("percent").notNull(),
    /** Lower-case addresses that sell, in landing order. */
    wallets: jsonb("wallets").$type<string[]>().notNull(),
    state: text("state", { enum: AUTOSELL_FIRING_STATES }).notNull().default("selling"),
    /** Waves sent so far, and the first block the next one may go in. */
    wavesSent: integer("waves_sent").notNull().default(0),
    /** Tries of the next wave that failed (at AUTOSELL_WAVE_ATTEMPTS the firing fails). */
    attempts: integer("attempts").notNull().default(0),
    nextBlock: bigint("next_block", { mode: "bigint" }).notNull(),
    transactions: jsonb("transactions").$type<string[]>().notNull().default([]),
    error: text("error"),
    decidedAt: timestamp("decided_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.ruleId, table.tier] }),
    index("autosell_firings_selling_idx").on(table.state),
  ],
);

/**
 * Outside trading per token and block: BNB that wallets other than the bundle's bought less what
 * they sold, from the launchpad's TokenPurchase / TokenSale events (sniper guards), kept from the
 * launch on. `autosell_scans` says how far each token's events were read.
 */
export const autosellFlows = pgTable(
  "autosell_flows",
  {
    token: text("token").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    /** Buys less sales by outside wallets in this block, wei (negative when they sold more). */
    netWei: numeric("net_wei", { precision: 78, scale: 0 }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.token, table.blockNumber] })],
);

export const autosellScans = pgTable("autosell_scans", {
  token: text("token").primaryKey(),
  /** The last block whose events are in autosell_flows. */
  scannedTo: bigint("scanned_to", { mode: "bigint" }).notNull(),
});
