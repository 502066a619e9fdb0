import { AUTH_REVALIDATE_MS, type Role } from "@bundler/shared";
import type { ApiError } from "../../../lib/api-client.ts";
import type { StoredAuth } from "../../../lib/key-store.ts";

export type StartupDecision =
  | { kind: "none" }
  | { kind: "trusted"; key: string; role: Role }
  | { kind: "validate"; key: string };

/** A key validated less than 24 h ago (and not in the future) is trusted without a call. */
export function isRecentlyValidated(lastValidatedAt: number | null, now: number): boolean {
  if (lastValidatedAt === null) return false;
  const age = now - lastValidatedAt;
  return age >= 0 && age < AUTH_REVALIDATE_MS;
}

/** What to do with the stored auth data at start-up. */
export function decideStartup(stored: StoredAuth, now: number): StartupDecision {
  if (!stored.key) return { kind: "none" };
  if (isRecentlyValidated(stored.lastValidatedAt, now)) {
    return { kind: "trusted", key: stored.key, role: stored.role ?? "user" };
  }
  return { kind: "validate", key: stored.key };
}

/**
 * Whether the server actually rejected the key, as opposed to not answering properly
 * (offline, rate limited, 5xx). Only a rejection throws the stored key away: a free key is
 * one per device, so losing it to a network blip would lock the device out.
 */
export function isKeyRejection(error: ApiError): boolean {
  if (error.status === null || error.status === 429) return false;
  return error.status < 500;
}
