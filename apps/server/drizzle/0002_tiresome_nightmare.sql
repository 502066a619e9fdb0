CREATE TABLE "delayed_buys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"draft_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"token_address" text NOT NULL,
	"wallet" text NOT NULL,
	"funds" numeric(78, 0) NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"tx_hash" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delayed_buys_draft_id_unique" UNIQUE("draft_id"),
	CONSTRAINT "delayed_buys_status_check" CHECK ("delayed_buys"."status" in ('scheduled', 'running', 'succeeded', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "delayed_buys" ADD CONSTRAINT "delayed_buys_draft_id_drafts_id_fk" FOREIGN KEY ("draft_id") REFERENCES "public"."drafts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delayed_buys" ADD CONSTRAINT "delayed_buys_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delayed_buys_status_due_idx" ON "delayed_buys" USING btree ("status","due_at");