CREATE TABLE "news" (
	"id" text PRIMARY KEY NOT NULL,
	"content" text NOT NULL,
	"label" text NOT NULL,
	"label_color" text NOT NULL,
	"date" timestamp with time zone DEFAULT now() NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"role" text DEFAULT 'user' NOT NULL,
	"device_id" text,
	"user_agent" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "users_key_hash_unique" UNIQUE("key_hash"),
	CONSTRAINT "users_device_id_unique" UNIQUE("device_id"),
	CONSTRAINT "users_role_check" CHECK ("users"."role" in ('user', 'admin', 'superadmin'))
);
--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role");