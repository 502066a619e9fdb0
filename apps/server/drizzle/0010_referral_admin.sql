CREATE TABLE "admin_audit" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" uuid NOT NULL,
	"actor_key_prefix" text NOT NULL,
	"actor_role" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"reason" text,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "referral_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"receiving_address" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"payout_attempts" integer DEFAULT 0 NOT NULL,
	"tx_hash" text,
	"reason" text,
	"decided_by" uuid,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "referral_claims_status_check" CHECK ("referral_claims"."status" in ('pending', 'completed', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "referral_codes" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"earned" numeric(78, 0) DEFAULT '0' NOT NULL,
	"claimable" numeric(78, 0) DEFAULT '0' NOT NULL,
	"pending" numeric(78, 0) DEFAULT '0' NOT NULL,
	"claimed" numeric(78, 0) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_codes_balances_check" CHECK ("referral_codes"."earned" >= 0 and "referral_codes"."claimable" >= 0 and "referral_codes"."pending" >= 0 and "referral_codes"."claimed" >= 0)
);
--> statement-breakpoint
CREATE TABLE "referral_rewards" (
	"payment_id" uuid PRIMARY KEY NOT NULL,
	"referrer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_device_id_unique";--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "draft_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "owner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_keys" ALTER COLUMN "owner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "kind" text DEFAULT 'launch_fee' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "device_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "referrer_id" uuid;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "referral_reward" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "usd_amount" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "bnb_usd_rate" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "key_issued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "key_source" text DEFAULT 'minted' NOT NULL;--> statement-breakpoint
-- Keys given to a device before key sources existed were free keys (minted ones have no device).
UPDATE "users" SET "key_source" = 'free' WHERE "device_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "referred_by" uuid;--> statement-breakpoint
ALTER TABLE "admin_audit" ADD CONSTRAINT "admin_audit_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_claims" ADD CONSTRAINT "referral_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_claims" ADD CONSTRAINT "referral_claims_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_codes" ADD CONSTRAINT "referral_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_referrer_id_users_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_audit_at_idx" ON "admin_audit" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "referral_claims_one_pending_idx" ON "referral_claims" USING btree ("user_id") WHERE "referral_claims"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "referral_claims_status_idx" ON "referral_claims" USING btree ("status","requested_at");--> statement-breakpoint
CREATE UNIQUE INDEX "referral_codes_code_idx" ON "referral_codes" USING btree (lower("code"));--> statement-breakpoint
CREATE INDEX "referral_rewards_referrer_idx" ON "referral_rewards" USING btree ("referrer_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_referrer_id_users_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_referred_by_users_id_fk" FOREIGN KEY ("referred_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_owner_idx" ON "payments" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "payments_device_idx" ON "payments" USING btree ("device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_free_device_idx" ON "users" USING btree ("device_id") WHERE "users"."key_source" = 'free';--> statement-breakpoint
CREATE INDEX "users_referred_by_idx" ON "users" USING btree ("referred_by");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_kind_check" CHECK (("payments"."kind" = 'launch_fee' and "payments"."draft_id" is not null and "payments"."owner_id" is not null) or ("payments"."kind" = 'access_key' and "payments"."device_id" is not null));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_key_source_check" CHECK ("users"."key_source" in ('free', 'purchased', 'minted'));