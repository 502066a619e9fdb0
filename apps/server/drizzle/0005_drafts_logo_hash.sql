ALTER TABLE "drafts" ADD COLUMN "logo_hash" text;--> statement-breakpoint
CREATE INDEX "drafts_logo_hash_idx" ON "drafts" USING btree ("logo_hash");--> statement-breakpoint
-- Backfill: the same rule as logoHashOf (apps/server/src/modules/drafts/logo.ts), SHA-256 of
-- the data URL's UTF-8 bytes, for logos that are data URLs of PNG, JPEG, GIF or WebP.
UPDATE "drafts" SET "logo_hash" = encode(sha256(convert_to("token_info"->>'image', 'UTF8')), 'hex')
WHERE "token_info"->>'image' ~ '^data:image/(png|jpeg|gif|webp);base64,';
