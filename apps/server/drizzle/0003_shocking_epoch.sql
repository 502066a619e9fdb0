CREATE TABLE "dispersal_deposits" (
	"tx_hash" text PRIMARY KEY NOT NULL,
	"dispersal_id" uuid NOT NULL,
	"from" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	"refundable" numeric(78, 0) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dispersal_legs" (
	"dispersal_id" uuid NOT NULL,
	"index" integer NOT NULL,
	"destination" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"wallets" jsonb,
	CONSTRAINT "dispersal_legs_dispersal_id_index_pk" PRIMARY KEY("dispersal_id","index")
);
--> statement-breakpoint
CREATE TABLE "dispersal_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dispersal_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"leg" integer,
	"step" integer,
	"step_key" text NOT NULL,
	"from" text NOT NULL,
	"to" text NOT NULL,
	"value" numeric(78, 0) NOT NULL,
	"nonce" integer NOT NULL,
	"raw_tx" text NOT NULL,
	"tx_hash" text NOT NULL,
	"reason" text,
	"status" text DEFAULT 'signed' NOT NULL,
	"error" text,
	"block_number" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dispersal_transfers_tx_hash_unique" UNIQUE("tx_hash"),
	CONSTRAINT "dispersal_transfers_step_key" UNIQUE("dispersal_id","step_key")
);
--> statement-breakpoint
CREATE TABLE "dispersals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"receiver" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"gas_price" numeric(78, 0) NOT NULL,
	"anti_bubblemaps" boolean NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"funded_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"funder" text,
	"scan_from_block" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dispersals_receiver_unique" UNIQUE("receiver"),
	CONSTRAINT "dispersals_status_check" CHECK ("dispersals"."status" in ('pending', 'sending', 'processing', 'completed', 'partial', 'failed', 'expired', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "wallet_keys" DROP CONSTRAINT "wallet_keys_purpose_check";--> statement-breakpoint
ALTER TABLE "dispersal_deposits" ADD CONSTRAINT "dispersal_deposits_dispersal_id_dispersals_id_fk" FOREIGN KEY ("dispersal_id") REFERENCES "public"."dispersals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispersal_legs" ADD CONSTRAINT "dispersal_legs_dispersal_id_dispersals_id_fk" FOREIGN KEY ("dispersal_id") REFERENCES "public"."dispersals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispersal_transfers" ADD CONSTRAINT "dispersal_transfers_dispersal_id_dispersals_id_fk" FOREIGN KEY ("dispersal_id") REFERENCES "public"."dispersals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispersals" ADD CONSTRAINT "dispersals_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dispersal_deposits_dispersal_idx" ON "dispersal_deposits" USING btree ("dispersal_id");--> statement-breakpoint
CREATE INDEX "dispersal_transfers_dispersal_idx" ON "dispersal_transfers" USING btree ("dispersal_id");--> statement-breakpoint
CREATE INDEX "dispersal_transfers_status_idx" ON "dispersal_transfers" USING btree ("status");--> statement-breakpoint
CREATE INDEX "dispersals_status_idx" ON "dispersals" USING btree ("status");--> statement-breakpoint
CREATE INDEX "dispersals_owner_idx" ON "dispersals" USING btree ("owner_id");--> statement-breakpoint
ALTER TABLE "wallet_keys" ADD CONSTRAINT "wallet_keys_purpose_check" CHECK ("wallet_keys"."purpose" in ('deployer', 'bundle', 'tip', 'payment', 'dispersal'));