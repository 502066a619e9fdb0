-- Every change that can alter what a key authenticates as (a key added, removed, deactivated,
-- re-activated, or its role changed) announces the key's digest on the channel `auth_keys`,
-- in the same transaction as the change, so every server process drops its cached answer for
-- that key when the change commits. TRUNCATE announces '*': forget every cached key.
-- A trigger rather than application code, so the admin CLI and manual SQL are covered too.
-- `last_used_at` updates do not fire it.
CREATE FUNCTION "auth_keys_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('auth_keys', '*');
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('auth_keys', NEW.key_hash);
  ELSE
    PERFORM pg_notify('auth_keys', OLD.key_hash);
    IF TG_OP = 'UPDATE' AND NEW.key_hash IS DISTINCT FROM OLD.key_hash THEN
      PERFORM pg_notify('auth_keys', NEW.key_hash);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_auth_keys_insert_delete" AFTER INSERT OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "auth_keys_notify"();
--> statement-breakpoint
CREATE TRIGGER "users_auth_keys_update" AFTER UPDATE OF "key_hash", "role", "is_active" ON "users"
  FOR EACH ROW
  WHEN (OLD."key_hash" IS DISTINCT FROM NEW."key_hash"
    OR OLD."role" IS DISTINCT FROM NEW."role"
    OR OLD."is_active" IS DISTINCT FROM NEW."is_active")
  EXECUTE FUNCTION "auth_keys_notify"();
--> statement-breakpoint
CREATE TRIGGER "users_auth_keys_truncate" AFTER TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "auth_keys_notify"();
