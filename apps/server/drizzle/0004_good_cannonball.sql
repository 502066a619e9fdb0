CREATE TABLE "chain_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"next_block" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_txs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"purpose" text NOT NULL,
	"owner_id" uuid,
	"subject" text,
	"from" text NOT NULL,
	"to" text,
	"value" numeric(78, 0) NOT NULL,
	"nonce" integer NOT NULL,
	"gas" bigint NOT NULL,
	"gas_price" numeric(78, 0) NOT NULL,
	"raw_tx" text NOT NULL,
	"tx_hash" text NOT NULL,
	"reason" text,
	"valid_until_block" bigint,
	"status" text DEFAULT 'signed' NOT NULL,
	"error" text,
	"block_number" bigint,
	"fee" numeric(78, 0),
	"broadcasts" integer DEFAULT 0 NOT NULL,
	"last_broadcast_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_txs_key_unique" UNIQUE("key"),
	CONSTRAINT "chain_txs_tx_hash_unique" UNIQUE("tx_hash"),
	CONSTRAINT "chain_txs_status_check" CHECK ("chain_txs"."status" in ('signed', 'sent', 'mined', 'reverted', 'replaced', 'dropped'))
);
--> statement-breakpoint
-- Every transfer already signed moves into the one transactions table, under the keys the
-- payment watcher and the dispersal engine now use; the old tables go.
INSERT INTO "chain_txs" ("key", "purpose", "owner_id", "subject", "from", "to", "value", "nonce", "gas", "gas_price", "raw_tx", "tx_hash", "reason", "status", "error", "broadcasts", "last_broadcast_at", "created_at", "updated_at")
SELECT
	CASE
		WHEN s."kind" = 'refund' AND d."tx_hash" IS NOT NULL THEN 'payment:' || s."payment_id" || ':refund:' || d."tx_hash"
		WHEN s."kind" = 'sweep' AND s."status" <> 'failed' THEN 'payment:' || s."payment_id" || ':sweep'
		ELSE 'legacy:' || s."id"
	END,
	'payment-' || s."kind", p."owner_id", s."payment_id"::text, s."from", s."to", s."value", s."nonce", 21000, 0, s."raw_tx", s."tx_hash", s."reason",
	CASE s."status"
		WHEN 'confirmed' THEN 'mined'
		WHEN 'failed' THEN CASE WHEN s."error" LIKE 'superseded%' THEN 'dropped' WHEN s."error" LIKE 'replaced%' THEN 'replaced' ELSE 'reverted' END
		ELSE s."status"
	END,
	s."error", CASE WHEN s."status" = 'signed' THEN 0 ELSE 1 END, CASE WHEN s."status" = 'signed' THEN NULL ELSE s."updated_at" END, s."created_at", s."updated_at"
FROM "chain_sends" s
LEFT JOIN "payments" p ON p."id" = s."payment_id"
LEFT JOIN "payment_deposits" d ON d."refund_send_id" = s."id";
--> statement-breakpoint
INSERT INTO "chain_txs" ("key", "purpose", "owner_id", "subject", "from", "to", "value", "nonce", "gas", "gas_price", "raw_tx", "tx_hash", "reason", "status", "error", "block_number", "broadcasts", "last_broadcast_at", "created_at", "updated_at")
SELECT
	'dispersal:' || t."dispersal_id" || ':' || t."step_key", 'dispersal-' || t."kind", d."owner_id", t."dispersal_id"::text, t."from", t."to", t."value", t."nonce", 21000, d."gas_price", t."raw_tx", t."tx_hash", t."reason",
	CASE t."status" WHEN 'confirmed' THEN 'mined' WHEN 'failed' THEN 'reverted' ELSE t."status" END,
	t."error", t."block_number", CASE WHEN t."status" = 'signed' THEN 0 ELSE 1 END, CASE WHEN t."status" = 'signed' THEN NULL ELSE t."updated_at" END, t."created_at", t."updated_at"
FROM "dispersal_transfers" t
JOIN "dispersals" d ON d."id" = t."dispersal_id";
--> statement-breakpoint
DROP TABLE "chain_sends" CASCADE;--> statement-breakpoint
DROP TABLE "dispersal_transfers" CASCADE;--> statement-breakpoint
ALTER TABLE "dispersal_deposits" ADD COLUMN "held_reason" text;--> statement-breakpoint
ALTER TABLE "dispersals" ADD COLUMN "settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_deposits" ADD COLUMN "held_reason" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "settled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_txs" ADD CONSTRAINT "chain_txs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chain_txs_live_nonce_idx" ON "chain_txs" USING btree ("from","nonce") WHERE "chain_txs"."status" in ('signed', 'sent', 'mined', 'reverted');--> statement-breakpoint
CREATE INDEX "chain_txs_open_idx" ON "chain_txs" USING btree ("status") WHERE "chain_txs"."status" in ('signed', 'sent');--> statement-breakpoint
CREATE INDEX "chain_txs_subject_idx" ON "chain_txs" USING btree ("subject");--> statement-breakpoint
ALTER TABLE "payment_deposits" DROP COLUMN "refund_send_id";
