CREATE TABLE "bumper_wallets" (
	"bumper_id" uuid NOT NULL,
	"index" integer NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bumper_wallets_bumper_id_index_pk" PRIMARY KEY("bumper_id","index")
);
--> statement-breakpoint
CREATE TABLE "bumpers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"target_token" text NOT NULL,
	"interval_minutes" numeric NOT NULL,
	"duration_minutes" numeric NOT NULL,
	"buy_size" numeric(78, 0) NOT NULL,
	"total_bumps" integer NOT NULL,
	"bumps_completed" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'ready' NOT NULL,
	"stop_reason" text,
	"current_wallet_index" integer DEFAULT 0 NOT NULL,
	"next_bump_at" timestamp with time zone,
	"last_bump_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bumpers_status_check" CHECK ("bumpers"."status" in ('ready', 'active', 'stopped', 'completed'))
);
--> statement-breakpoint
CREATE TABLE "bumps" (
	"bumper_id" uuid NOT NULL,
	"index" integer NOT NULL,
	"wallet_index" integer NOT NULL,
	"status" text DEFAULT 'trading' NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"move_attempt" integer DEFAULT 0 NOT NULL,
	"tokens" numeric(78, 0),
	"bought" numeric(78, 0),
	"sold" numeric(78, 0),
	"gas" numeric(78, 0),
	"block" bigint,
	"buy_hash" text,
	"sell_hash" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "bumps_bumper_id_index_pk" PRIMARY KEY("bumper_id","index"),
	CONSTRAINT "bumps_status_check" CHECK ("bumps"."status" in ('trading', 'moving', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "wallet_keys" DROP CONSTRAINT "wallet_keys_purpose_check";--> statement-breakpoint
ALTER TABLE "bumper_wallets" ADD CONSTRAINT "bumper_wallets_bumper_id_bumpers_id_fk" FOREIGN KEY ("bumper_id") REFERENCES "public"."bumpers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bumpers" ADD CONSTRAINT "bumpers_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bumps" ADD CONSTRAINT "bumps_bumper_id_bumpers_id_fk" FOREIGN KEY ("bumper_id") REFERENCES "public"."bumpers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bumpers_owner_token_open_idx" ON "bumpers" USING btree ("owner_id",lower("target_token")) WHERE "bumpers"."status" <> 'completed';--> statement-breakpoint
CREATE INDEX "bumpers_status_idx" ON "bumpers" USING btree ("status","next_bump_at");--> statement-breakpoint
ALTER TABLE "wallet_keys" ADD CONSTRAINT "wallet_keys_purpose_check" CHECK ("wallet_keys"."purpose" in ('deployer', 'bundle', 'tip', 'payment', 'dispersal', 'bumper'));