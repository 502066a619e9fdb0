CREATE TABLE "chain_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"payment_id" uuid,
	"draft_id" uuid,
	"from" text NOT NULL,
	"to" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	"nonce" integer NOT NULL,
	"raw_tx" text NOT NULL,
	"tx_hash" text NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'signed' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_sends_tx_hash_unique" UNIQUE("tx_hash")
);
--> statement-breakpoint
CREATE TABLE "drafts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"token_info" jsonb NOT NULL,
	"deployer_address" text,
	"wallet_config" jsonb NOT NULL,
	"payment_id" uuid,
	"launch" jsonb,
	"expires_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "drafts_status_check" CHECK ("drafts"."status" in ('draft', 'pending_payment', 'paid', 'executing', 'executed'))
);
--> statement-breakpoint
CREATE TABLE "launch_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"draft_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"token_address" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "launches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"draft_id" uuid NOT NULL,
	"token_address" text NOT NULL,
	"ticker" text NOT NULL,
	"image" text DEFAULT '' NOT NULL,
	"wallets" jsonb NOT NULL,
	"block_number" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_deposits" (
	"tx_hash" text PRIMARY KEY NOT NULL,
	"payment_id" uuid NOT NULL,
	"from" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	"refundable" numeric(78, 0) DEFAULT '0' NOT NULL,
	"refund_send_id" uuid
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"draft_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"address" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"swept_at" timestamp with time zone,
	"scan_from_block" bigint NOT NULL,
	"last_balance" numeric(78, 0) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_address_unique" UNIQUE("address"),
	CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('open', 'paid', 'cancelled', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "wallet_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"address" text NOT NULL,
	"purpose" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"draft_id" uuid,
	"ciphertext" text NOT NULL,
	"iv" text NOT NULL,
	"tag" text NOT NULL,
	"key_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_keys_purpose_check" CHECK ("wallet_keys"."purpose" in ('deployer', 'bundle', 'tip', 'payment'))
);
--> statement-breakpoint
ALTER TABLE "chain_sends" ADD CONSTRAINT "chain_sends_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "launch_jobs" ADD CONSTRAINT "launch_jobs_draft_id_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."drafts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "launch_jobs" ADD CONSTRAINT "launch_jobs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "launches" ADD CONSTRAINT "launches_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "launches" ADD CONSTRAINT "launches_draft_id_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."drafts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_deposits" ADD CONSTRAINT "payment_deposits_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_draft_id_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."drafts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_keys" ADD CONSTRAINT "wallet_keys_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chain_sends_status_idx" ON "chain_sends" USING btree ("status");--> statement-breakpoint
CREATE INDEX "drafts_owner_idx" ON "drafts" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "launch_jobs_status_idx" ON "launch_jobs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "launches_owner_idx" ON "launches" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "payment_deposits_payment_idx" ON "payment_deposits" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "payments_status_idx" ON "payments" USING btree ("status");--> statement-breakpoint
CREATE INDEX "wallet_keys_draft_idx" ON "wallet_keys" USING btree ("draft_id");--> statement-breakpoint
CREATE INDEX "wallet_keys_owner_idx" ON "wallet_keys" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "wallet_keys_address_idx" ON "wallet_keys" USING btree ("address");