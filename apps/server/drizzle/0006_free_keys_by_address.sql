ALTER TABLE "users" ADD COLUMN "created_ip" text;--> statement-breakpoint
CREATE INDEX "users_created_ip_idx" ON "users" USING btree ("created_ip","created_at");