ALTER TABLE "builder_sends" ADD COLUMN "bundle_hash" text;--> statement-breakpoint
ALTER TABLE "builder_sends" ADD COLUMN "status" text;--> statement-breakpoint
ALTER TABLE "builder_sends" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "builder_sends" ADD COLUMN "status_at" timestamp with time zone;