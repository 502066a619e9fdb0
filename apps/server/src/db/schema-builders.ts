import { BUILDER_ANSWERS, BUNDLE_KINDS } from "@bundler/shared";
import { sql } from "drizzle-orm";
import { bigint, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./schema.ts";

/**
 * Every builder's answer to every bundle the server sent (modules/builders): one row per
 * builder and bundle, with that builder's tip transaction, written once the builders answered.
 * `outcome` is the chain's word, set by the per-block pass: `landed` when the tip has a receipt
 * (its block in `landedBlock`), `not-landed` once the window passed without one, or at once for
 * a refusal. Rows of builders never asked (`skipped`) have none.
 */
export const builderSends = pgTable(
  "builder_sends",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** One send of one bundle: the rows of its builders share it. */
    bundleId: uuid("bundle_id").notNull(),
    ownerId: uuid("owner_id").references(() => users.id),
    kind: text("kind", { enum: BUNDLE_KINDS }).notNull(),
    /** What the bundle belongs to: a launch job id, a token (sells), a bumper id. */
    subject: text("subject"),
    builder: text("builder").notNull(),
    answer: text("answer", { enum: BUILDER_ANSWERS }).notNull(),
    /** The refusal, in words (refused, silent, skipped). */
    reason: text("reason"),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
    answerMs: integer("answer_ms").notNull(),
    tipHash: text("tip_hash").notNull(),
    maxBlockNumber: bigint("max_block_number", { mode: "bigint" }).notNull(),
    headAtSend: bigint("head_at_send", { mode: "bigint" }).notNull(),
    outcome: text("outcome", { enum: ["landed", "not-landed"] }),
    landedBlock: bigint("landed_block", { mode: "bigint" }),
    /** The bundle's hash as the builder answered it: what its status service is asked by. */
    bundleHash: text("bundle_hash"),
    /**
     * For an accepted bundle that did not land, what the builder's status service said
     * (BuilderStatuses): `failed` with its words, `unknown`, `pending` (not decided when asked),
     * `landed` (which the chain did not show); asked once, at `statusAt`.
     */
    status: text("status", { enum: ["landed", "failed", "pending", "unknown"] }),
    statusReason: text("status_reason"),
    statusAt: timestamp("status_at", { withTimezone: true }),
  },
  (table) => [
    index("builder_sends_sent_at_idx").on(table.sentAt),
    index("builder_sends_owner_idx").on(table.ownerId, table.sentAt),
    index("builder_sends_open_idx")
      .on(table.maxBlockNumber)
      .where(sql`${table.outcome} is null and ${table.answer} <> 'skipped'`),
  ],
);
