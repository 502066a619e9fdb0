CREATE TABLE "autosell_firings" (
	"rule_id" uuid NOT NULL,
	"tier" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"reading" jsonb NOT NULL,
	"percent" text NOT NULL,
	"wallets" jsonb NOT NULL,
	"state" text DEFAULT 'selling' NOT NULL,
	"waves_sent" integer DEFAULT 0 NOT NULL,
	"next_block" bigint NOT NULL,
	"transactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "autosell_firings_rule_id_tier_pk" PRIMARY KEY("rule_id","tier")
);
--> statement-breakpoint
CREATE TABLE "autosell_flows" (
	"token" text NOT NULL,
	"block_number" bigint NOT NULL,
	"net_wei" numeric(78, 0) NOT NULL,
	CONSTRAINT "autosell_flows_token_block_number_pk" PRIMARY KEY("token","block_number")
);
--> statement-breakpoint
CREATE TABLE "autosell_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"token" text NOT NULL,
	"state" text DEFAULT 'armed' NOT NULL,
	"trigger" jsonb,
	"action" jsonb NOT NULL,
	"execution" jsonb NOT NULL,
	"reading" jsonb,
	"peak_wei" numeric(78, 0),
	"armed_block" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "autosell_scans" (
	"token" text PRIMARY KEY NOT NULL,
	"scanned_to" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "autosell_firings" ADD CONSTRAINT "autosell_firings_rule_id_autosell_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."autosell_rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "autosell_rules" ADD CONSTRAINT "autosell_rules_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "autosell_firings_selling_idx" ON "autosell_firings" USING btree ("state");--> statement-breakpoint
CREATE INDEX "autosell_rules_token_state_idx" ON "autosell_rules" USING btree ("token","state");--> statement-breakpoint
CREATE INDEX "autosell_rules_owner_state_idx" ON "autosell_rules" USING btree ("owner_id","state");