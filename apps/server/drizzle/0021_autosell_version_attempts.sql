ALTER TABLE "autosell_firings" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "autosell_rules" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;