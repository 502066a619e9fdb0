import { BUMPER_STATUSES, DISPERSAL_STATUSES } from "@bundler/shared";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** A user is an access key: the key is the identity. Only its digest is kept. */
export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    keyHash: text("key_hash").notNull().unique(),
    keyPrefix: text("key_prefix").notNull(),
    role: text("role", { enum: ["user", "admin", "superadmin"] })
      .notNull()
      .default("user"),
    /** The browser that asked for the key: one free key per device (a bought key is extra). */
    deviceId: text("device_id"),
    userAgent: text("user_agent"),
    /** The client address a free key was given to: free keys per address per day are counted. */
    createdIp: text("created_ip"),
    /** How the key came: free (one per device), purchased, or minted (CLI, first start). */
    keySource: text("key_source", { enum: ["free", "purchased", "minted"] })
      .notNull()
      .default("minted"),
    /** The referrer, when the key came with a valid referral code. */
    referredBy: uuid("referred_by").references((): AnyPgColumn => users.id),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (table) => [
    check("users_role_check", sql`${table.role} in ('user', 'admin', 'superadmin')`),
    check("users_key_source_check", sql`${table.keySource} in ('free', 'purchased', 'minted')`),
    index("users_role_idx").on(table.role),
    index("users_created_ip_idx").on(table.createdIp, table.createdAt),
    uniqueIndex("users_free_device_idx").on(table.deviceId).where(sql`${table.keySource} = 'free'`),
    index("users_referred_by_idx").on(table.referredBy),
  ],
);

export const news = pgTable("news", {
  id: text("id").primaryKey(),
  content: text("content").notNull(),
  label: text("label").notNull(),
  labelColor: text("label_color").notNull(),
  date: timestamp("date", { withTimezone: true }).notNull().defaultNow(),
  active: boolean("active").notNull().default(true),
});

const wei = (name: string) => numeric(name, { precision: 78, scale: 0 });

/**
 * Every private key the server holds, AES-256-GCM under the master key (see lib/key-vault.ts).
 * Rows are kept, since a wallet may still hold money after its draft is gone; the one exception
 * is a draft's key that an update replaced, whose address never held or moved money (it is
 * deleted with the update, see modules/drafts/replaced-keys.ts).
 */
export const walletKeys = pgTable(
  "wallet_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    address: text("address").notNull(),
    purpose: text("purpose", {
      enum: ["deployer", "bundle", "tip", "payment", "dispersal", "bumper"],
    }).notNull(),
    /** Null for a key purchase's payment address: its buyer has no key yet. */
    ownerId: uuid("owner_id").references(() => users.id),
    draftId: uuid("draft_id"),
    ciphertext: text("ciphertext").notNull(),
    iv: text("iv").notNull(),
    tag: text("tag").notNull(),
    keyId: text("key_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "wallet_keys_purpose_check",
      sql`${table.purpose} in ('deployer', 'bundle', 'tip', 'payment', 'dispersal', 'bumper')`,
    ),
    index("wallet_keys_draft_idx").on(table.draftId),
    index("wallet_keys_owner_idx").on(table.ownerId),
    index("wallet_keys_address_idx").on(table.address),
  ],
);

/** A launch being prepared. Keys live only in wallet_keys; here only addresses. */
export const drafts = pgTable(
  "drafts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id),
    status: text("status", {
      enum: ["draft", "pending_payment", "paid", "executing", "executed"],
    })
      .notNull()
      .default("draft"),
    tokenInfo: jsonb("token_info").notNull(),
    /** SHA-256 (hex) of tokenInfo.image when it is a servable data URL: the logo's public URL. */
    logoHash: text("logo_hash"),
    deployerAddress: text("deployer_address"),
    /** walletConfig without private keys: wallets are {address, buyValue}, tipPayer an address. */
    walletConfig: jsonb("wallet_config").notNull(),
    paymentId: uuid("payment_id"),
    launch: jsonb("launch"),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "drafts_status_check",
      sql`${table.status} in ('draft', 'pending_payment', 'paid', 'executing', 'executed')`,
    ),
    index("drafts_owner_idx").on(table.ownerId),
    index("drafts_logo_hash_idx").on(table.logoHash),
  ],
);

/**
 * One payment address per attempt, watched until its money is settled: a draft's launch fee
 * (`launch_fee`: draft and owner set) or an access key's price (`access_key`: the device that
 * asked; the owner is the key's user once the key is handed out).
 */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: ["launch_fee", "access_key"] })
      .notNull()
      .default("launch_fee"),
    draftId: uuid("draft_id").references(() => drafts.id),
    ownerId: uuid("owner_id").references(() => users.id),
    address: text("address").notNull().unique(),
    amount: wei("amount").notNull(),
    status: text("status", { enum: ["open", "paid", "cancelled", "expired"] })
      .notNull()
      .default("open"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /**
     * The block up to which the payment was judged when it was credited: a deposit in a later
     * block came after it was complete and goes back in full.
     */
    paidBlock: bigint("paid_block", { mode: "bigint" }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    /** The fee was sent to the treasury. */
    sweptAt: timestamp("swept_at", { withTimezone: true }),
    /**
     * Nothing left to do with this address's money (every refund sent or held, the fee swept);
     * null while there is, so the watcher looks at it. A new deposit clears it.
     */
    settledAt: timestamp("settled_at", { withTimezone: true }),
    /** The first block not yet scanned for incoming transfers. */
    scanFromBlock: bigint("scan_from_block", { mode: "bigint" }).notNull(),
    lastBalance: wei("last_balance").notNull().default("0"),
    /** access_key: the device that started it (only it sees the payment and gets the key). */
    deviceId: text("device_id"),
    /** access_key: the referral code's owner, when a valid code came with it. */
    referrerId: uuid("referrer_id").references(() => users.id),
    /** access_key: the referrer's reward, wei at this payment's own BNB/USD rate. */
    referralReward: wei("referral_reward"),
    /** access_key: the USD price asked and the USD per BNB it was converted at. */
    usdAmount: text("usd_amount"),
    bnbUsdRate: text("bnb_usd_rate"),
    /** access_key: when the key was handed out (once; only its digest is kept). */
    keyIssuedAt: timestamp("key_issued_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "payments_status_check",
      sql`${table.status} in ('open', 'paid', 'cancelled', 'expired')`,
    ),
    check(
      "payments_kind_check",
      sql`(${table.kind} = 'launch_fee' and ${table.draftId} is not null and ${table.ownerId} is not null) or (${table.kind} = 'access_key' and ${table.deviceId} is not null)`,
    ),
    index("payments_status_idx").on(table.status),
    // A draft's payments (its refunds on every drafts page and draft read).
    index("payments_draft_idx").on(table.draftId),
    index("payments_owner_idx").on(table.ownerId),
    index("payments_device_idx").on(table.deviceId),
  ],
);

/** Every transfer seen arriving at a payment address, so a refund knows its sender. */
export const paymentDeposits = pgTable(
  "payment_deposits",
  {
    txHash: text("tx_hash").primaryKey(),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    from: text("from").notNull(),
    value: wei("value").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    blockTime: timestamp("block_time", { withTimezone: true }).notNull(),
    /** Wei of this deposit owed back to its sender (late, after cancel, or over the amount). */
    refundable: wei("refundable").notNull().default("0"),
    /**
     * Why the refundable part is held at the payment address instead of sent back (it came
     * from one of our own wallets, or its refund cannot be delivered); null while it is owed.
     */
    heldReason: text("held_reason"),
  },
  (table) => [index("payment_deposits_payment_idx").on(table.paymentId)],
);

/** Where a transaction stands; the last four are final (see modules/transactions). */
export const TX_STATUSES = ["signed", "sent", "mined", "reverted", "replaced", "dropped"] as const;

/**
 * Every transaction the server signs, whatever it is for (a refund, a sweep, a dispersal step, a
 * delayed buy, a launch bundle's transactions): recorded with its nonce, raw bytes, purpose and
 * owner BEFORE it is broadcast, under a caller's idempotency `key`, then reconciled against
 * receipts until it reaches a final state with a reason. One table, one nonce allocator: two
 * live transactions from one address never share a nonce (the partial unique index).
 */
export const chainTxs = pgTable(
  "chain_txs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The caller's idempotency key: a second send with the same key answers the first. */
    key: text("key").notNull().unique(),
    purpose: text("purpose").notNull(),
    ownerId: uuid("owner_id").references(() => users.id),
    /** What the transaction belongs to (a payment id, a dispersal id, a launch job id). */
    subject: text("subject"),
    from: text("from").notNull(),
    to: text("to"),
    value: wei("value").notNull(),
    nonce: integer("nonce").notNull(),
    gas: bigint("gas", { mode: "bigint" }).notNull(),
    gasPrice: wei("gas_price").notNull(),
    rawTx: text("raw_tx").notNull(),
    txHash: text("tx_hash").notNull().unique(),
    /** Why it is sent, in the owner's words ("Payment arrived after the window closed"). */
    reason: text("reason"),
    /** A bundle's transactions: never broadcast, dropped once the chain passes this block. */
    validUntilBlock: bigint("valid_until_block", { mode: "bigint" }),
    /**
     * Signed ahead: not broadcast while this transaction (the one that funds its sender) is
     * open; goes out as soon as that one is settled.
     */
    afterId: uuid("after_id").references((): AnyPgColumn => chainTxs.id),
    /**
     * The earlier attempt this one retries (a refund or payout sent again): a retry is checked
     * against every attempt before it, so none of them can land beside it.
     */
    retriesId: uuid("retries_id").references((): AnyPgColumn => chainTxs.id),
    status: text("status", { enum: TX_STATUSES }).notNull().default("signed"),
    /** The node's last refusal while open; why it ended once final (revert reason, ...). */
    error: text("error"),
    blockNumber: bigint("block_number", { mode: "bigint" }),
    /** gasUsed × effectiveGasPrice, once mined or reverted. */
    fee: wei("fee"),
    broadcasts: integer("broadcasts").notNull().default(0),
    lastBroadcastAt: timestamp("last_broadcast_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "chain_txs_status_check",
      sql`${table.status} in ('signed', 'sent', 'mined', 'reverted', 'replaced', 'dropped')`,
    ),
    uniqueIndex("chain_txs_live_nonce_idx")
      .on(table.from, table.nonce)
      .where(sql`${table.status} in ('signed', 'sent', 'mined', 'reverted')`),
    index("chain_txs_open_idx").on(table.status).where(sql`${table.status} in ('signed', 'sent')`),
    // The reconcile watches recently dropped ones until their nonce shows what became of them.
    index("chain_txs_dropped_idx")
      .on(table.lastBroadcastAt)
      .where(sql`${table.status} = 'dropped'`),
    index("chain_txs_subject_idx").on(table.subject),
    // The P&L ledger's pass: a launched bundle's transactions by block (migration 0017).
    index("chain_txs_bundle_block_idx")
      .on(table.blockNumber)
      .where(
        sql`${table.purpose} in ('launch', 'delayed-buy', 'bundle-approve', 'bundle-sell', 'bundle-empty')`,
      ),
    // The same pass: dispersal transfers by block, for top-ups of launched wallets (0019).
    index("chain_txs_dispersal_block_idx")
      .on(table.blockNumber)
      .where(sql`${table.purpose} = 'dispersal-hop'`),
  ],
);

/**
 * Keys a transaction was recorded under before the one it has now. A dropped transaction that
 * a later request or attempt signs again byte for byte (same nonce, call and price) is
 * recorded again under the new key (its hash is unique); its earlier key stays here, so the
 * request that recorded it first still finds it, whatever became of it since.
 */
export const chainTxFormerKeys = pgTable(
  "chain_tx_former_keys",
  {
    key: text("key").primaryKey(),
    txId: uuid("tx_id")
      .notNull()
      .references(() => chainTxs.id),
  },
  (table) => [index("chain_tx_former_keys_tx_idx").on(table.txId)],
);

/** How far a block scanner has read: the first block not yet scanned, per scanner. */
export const chainCursors = pgTable("chain_cursors", {
  name: text("name").primaryKey(),
  nextBlock: bigint("next_block", { mode: "bigint" }).notNull(),
});

/** A launch run: persisted so a restart resumes it or says honestly that it failed. */
export const launchJobs = pgTable(
  "launch_jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    draftId: uuid("draft_id")
      .notNull()
      .references(() => drafts.id),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id),
    status: text("status", { enum: ["running", "succeeded", "failed"] })
      .notNull()
      .default("running"),
    /** Known once the simulation passed: lets a restart check whether the create landed. */
    tokenAddress: text("token_address"),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("launch_jobs_status_idx").on(table.status)],
);

/**
 * The delayed bundle: one buy by the draft's sniper wallet, due some seconds after the launch.
 * Persisted so a restart still runs it; `scheduled → running` is claimed by one conditional
 * UPDATE, so it runs exactly once. One per draft.
 */
export const delayedBuys = pgTable(
  "delayed_buys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    draftId: uuid("draft_id")
      .notNull()
      .unique()
      .references(() => drafts.id),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id),
    tokenAddress: text("token_address").notNull(),
    wallet: text("wallet").notNull(),
    funds: wei("funds").notNull(),
    dueAt: timestamp("due_at", { withTimezone: true }).notNull(),
    status: text("status", { enum: ["scheduled", "running", "succeeded", "failed"] })
      .notNull()
      .default("scheduled"),
    txHash: text("tx_hash"),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "delayed_buys_status_check",
      sql`${table.status} in ('scheduled', 'running', 'succeeded', 'failed')`,
    ),
    index("delayed_buys_status_due_idx").on(table.status, table.dueAt),
  ],
);

/** A token this server launched, for the wallet manager. */
export const launches = pgTable(
  "launches",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id),
    draftId: uuid("draft_id")
      .notNull()
      .references(() => drafts.id),
    tokenAddress: text("token_address").notNull(),
    ticker: text("ticker").notNull(),
    /** The token's name, kept here so the wallet manager's polls never read the draft's logo. */
    name: text("name").notNull().default(""),
    image: text("image").notNull().default(""),
    wallets: jsonb("wallets").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("launches_owner_idx").on(table.ownerId),
    // Which of a page's expired drafts launched a token (the drafts list).
    index("launches_draft_idx").on(table.draftId),
  ],
);

/**
 * A dispersal: a fresh receiving wallet (its id for the user) that, once funded, pays every
 * destination its exact amount, directly or along a chain of fresh intermediate wallets.
 */
export const dispersals = pgTable(
  "dispersals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id),
    receiver: text("receiver").notNull().unique(),
    /** What the receiver must be sent: every amount plus the gas of every transfer. */
    amount: wei("amount").notNull(),
    /** The legacy gas price every transfer of this dispersal uses (planned into `amount`). */
    gasPrice: wei("gas_price").notNull(),
    antiBubblemaps: boolean("anti_bubblemaps").notNull(),
    status: text("status", { enum: DISPERSAL_STATUSES }).notNull().default("pending"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    fundedAt: timestamp("funded_at", { withTimezone: true }),
    /**
     * The block up to which the funding was judged: a deposit in a later block came after it
     * was complete and goes back in full.
     */
    fundedBlock: bigint("funded_block", { mode: "bigint" }),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    /** The sender of the funding; refunds and stuck amounts go back there. */
    funder: text("funder"),
    /** Closed with nothing left to refund or return; a new deposit clears it. */
    settledAt: timestamp("settled_at", { withTimezone: true }),
    /** The first block not yet scanned for incoming transfers. */
    scanFromBlock: bigint("scan_from_block", { mode: "bigint" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "dispersals_status_check",
      sql`${table.status} in ('pending', 'sending', 'processing', 'completed', 'partial', 'failed', 'expired', 'cancelled')`,
    ),
    index("dispersals_status_idx").on(table.status),
    index("dispersals_owner_idx").on(table.ownerId),
  ],
);

/** One destination of a dispersal: a "chain" on the screen. */
export const dispersalLegs = pgTable(
  "dispersal_legs",
  {
    dispersalId: uuid("dispersal_id")
      .notNull()
      .references(() => dispersals.id),
    index: integer("index").notNull(),
    destination: text("destination").notNull(),
    amount: wei("amount").notNull(),
    /** The intermediate wallets (keys stored first) once funding is seen; null when direct. */
    wallets: jsonb("wallets").$type<string[]>(),
  },
  (table) => [primaryKey({ columns: [table.dispersalId, table.index] })],
);

/** Every transfer seen arriving at a dispersal's receiver, so a refund knows its sender. */
export const dispersalDeposits = pgTable(
  "dispersal_deposits",
  {
    txHash: text("tx_hash").primaryKey(),
    dispersalId: uuid("dispersal_id")
      .notNull()
      .references(() => dispersals.id),
    from: text("from").notNull(),
    value: wei("value").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    blockTime: timestamp("block_time", { withTimezone: true }).notNull(),
    /** Wei of this deposit not owed to the dispersal (late, or over the amount); its refund is the transfer keyed `refund:{txHash}`. */
    refundable: wei("refundable").notNull().default("0"),
    /** Why the refundable part is held instead of sent back (it came from one of our own wallets). */
    heldReason: text("held_reason"),
  },
  (table) => [index("dispersal_deposits_dispersal_idx").on(table.dispersalId)],
);

/**
 * A bumper: a wallet that buys `buy_size` of a token and sells it in the same block, every
 * `interval_minutes`, moving its BNB to a fresh wallet after each bump. One not completed per
 * user and token.
 */
export const bumpers = pgTable(
  "bumpers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id),
    /** Checksummed. */
    targetToken: text("target_token").notNull(),
    intervalMinutes: numeric("interval_minutes", { mode: "number" }).notNull(),
    durationMinutes: numeric("duration_minutes", { mode: "number" }).notNull(),
    buySize: wei("buy_size").notNull(),
    totalBumps: integer("total_bumps").notNull(),
    bumpsCompleted: integer("bumps_completed").notNull().default(0),
    status: text("status", { enum: BUMPER_STATUSES }).notNull().default("ready"),
    stopReason: text("stop_reason"),
    currentWalletIndex: integer("current_wallet_index").notNull().default(0),
    nextBumpAt: timestamp("next_bump_at", { withTimezone: true }),
    lastBumpAt: timestamp("last_bump_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "bumpers_status_check",
      sql`${table.status} in ('ready', 'active', 'stopped', 'completed')`,
    ),
    uniqueIndex("bumpers_owner_token_open_idx")
      .on(table.ownerId, sql`lower(${table.targetToken})`)
      .where(sql`${table.status} <> 'completed'`),
    index("bumpers_status_idx").on(table.status, table.nextBumpAt),
  ],
);

/** Every wallet a bumper used, in order; keys in wallet_keys (purpose bumper), stored first. */
export const bumperWallets = pgTable(
  "bumper_wallets",
  {
    bumperId: uuid("bumper_id")
      .notNull()
      .references(() => bumpers.id),
    index: integer("index").notNull(),
    address: text("address").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.bumperId, table.index] })],
);

/**
 * One bump, a recorded sequence: `trading` (the buy+sell bundle, attempt by attempt, each
 * attempt's transactions recorded by the transaction manager before it goes out), `moving`
 * (the BNB to the next wallet), `done`; or `failed` with why.
 */
export const bumps = pgTable(
  "bumps",
  {
    bumperId: uuid("bumper_id")
      .notNull()
      .references(() => bumpers.id),
    index: integer("index").notNull(),
    walletIndex: integer("wallet_index").notNull(),
    status: text("status", { enum: ["trading", "moving", "done", "failed"] })
      .notNull()
      .default("trading"),
    attempt: integer("attempt").notNull().default(0),
    moveAttempt: integer("move_attempt").notNull().default(0),
    tokens: wei("tokens"),
    bought: wei("bought"),
    sold: wei("sold"),
    gas: wei("gas"),
    block: bigint("block", { mode: "bigint" }),
    buyHash: text("buy_hash"),
    sellHash: text("sell_hash"),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp("done_at", { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.bumperId, table.index] }),
    check("bumps_status_check", sql`${table.status} in ('trading', 'moving', 'done', 'failed')`),
  ],
);

/** A user's referral code (one per user) and the rewards it earned, wei. */
export const referralCodes = pgTable(
  "referral_codes",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id),
    /** As its owner typed it; unique case-insensitively. */
    code: text("code").notNull(),
    /** Every reward ever credited. */
    earned: wei("earned").notNull().default("0"),
    /** What a claim would reserve now. */
    claimable: wei("claimable").notNull().default("0"),
    /** Held by the pending claim (at most one). */
    pending: wei("pending").notNull().default("0"),
    /** Paid out by completed claims. */
    claimed: wei("claimed").notNull().default("0"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("referral_codes_code_idx").on(sql`lower(${table.code})`),
    check(
      "referral_codes_balances_check",
      sql`${table.earned} >= 0 and ${table.claimable} >= 0 and ${table.pending} >= 0 and ${table.claimed} >= 0`,
    ),
  ],
);

/**
 * The ledger of referral rewards: one row per credited payment (its primary key), written in the
 * same transaction as the credit, so a payment rewards its referrer exactly once.
 */
export const referralRewards = pgTable(
  "referral_rewards",
  {
    paymentId: uuid("payment_id")
      .primaryKey()
      .references(() => payments.id),
    referrerId: uuid("referrer_id")
      .notNull()
      .references(() => users.id),
    kind: text("kind", { enum: ["access_key", "launch_fee"] }).notNull(),
    amount: wei("amount").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("referral_rewards_referrer_idx").on(table.referrerId)],
);

/**
 * A claim of referral rewards: the whole claimable amount, reserved when asked. An admin
 * completes it (a payout from the treasury, attempt by attempt through the transaction manager)
 * or rejects it. One pending claim per user.
 */
export const referralClaims = pgTable(
  "referral_claims",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    amount: wei("amount").notNull(),
    receivingAddress: text("receiving_address").notNull(),
    status: text("status", { enum: ["pending", "completed", "rejected"] })
      .notNull()
      .default("pending"),
    /** Payout attempts an admin asked for; the transaction of attempt n is keyed by it. */
    payoutAttempts: integer("payout_attempts").notNull().default(0),
    txHash: text("tx_hash"),
    /** Why the last payout failed, or why it was rejected. */
    reason: text("reason"),
    decidedBy: uuid("decided_by").references(() => users.id),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (table) => [
    check(
      "referral_claims_status_check",
      sql`${table.status} in ('pending', 'completed', 'rejected')`,
    ),
    uniqueIndex("referral_claims_one_pending_idx")
      .on(table.userId)
      .where(sql`${table.status} = 'pending'`),
    index("referral_claims_status_idx").on(table.status, table.requestedAt),
  ],
);

/** Every privileged action, written in the same transaction as the action itself. */
export const adminAudit = pgTable(
  "admin_audit",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorId: uuid("actor_id")
      .notNull()
      .references(() => users.id),
    actorKeyPrefix: text("actor_key_prefix").notNull(),
    actorRole: text("actor_role").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    reason: text("reason"),
    details: jsonb("details"),
  },
  (table) => [index("admin_audit_at_idx").on(table.at)],
);

/**
 * Rate-limit windows on Postgres, shared by every server process (lib/rate-limits.ts): one row
 * per counted key (an address, per route), its hits in the window and when the window ends.
 * Unlogged (migration 0016): counts need no crash safety, and skip the write-ahead log.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  hits: integer("hits").notNull(),
  resetsAt: timestamp("resets_at", { withTimezone: true }).notNull(),
});

export * from "./schema-autosell.ts";
export * from "./schema-builders.ts";
export * from "./schema-pnl.ts";
