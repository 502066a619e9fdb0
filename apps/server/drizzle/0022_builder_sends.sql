CREATE TABLE "builder_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"bundle_id" uuid NOT NULL,
	"owner_id" uuid,
	"kind" text NOT NULL,
	"subject" text,
	"builder" text NOT NULL,
	"answer" text NOT NULL,
	"reason" text,
	"sent_at" timestamp with time zone NOT NULL,
	"answer_ms" integer NOT NULL,
	"tip_hash" text NOT NULL,
	"max_block_number" bigint NOT NULL,
	"head_at_send" bigint NOT NULL,
	"outcome" text,
	"landed_block" bigint
);
--> statement-breakpoint
ALTER TABLE "builder_sends" ADD CONSTRAINT "builder_sends_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "builder_sends_sent_at_idx" ON "builder_sends" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "builder_sends_owner_idx" ON "builder_sends" USING btree ("owner_id","sent_at");--> statement-breakpoint
CREATE INDEX "builder_sends_open_idx" ON "builder_sends" USING btree ("max_block_number") WHERE "builder_sends"."outcome" is null and "builder_sends"."answer" <> 'skipped';