ALTER TABLE "launches" ADD COLUMN "name" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Launches recorded before this column keep their draft's token name (read once, here).
UPDATE "launches" SET "name" = coalesce("drafts"."token_info"->>'name', '') FROM "drafts" WHERE "drafts"."id" = "launches"."draft_id";--> statement-breakpoint
CREATE INDEX "launches_draft_idx" ON "launches" USING btree ("draft_id");--> statement-breakpoint
CREATE INDEX "payments_draft_idx" ON "payments" USING btree ("draft_id");
