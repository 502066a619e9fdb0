import { AUTH_REVALIDATE_MS, ERROR_CATALOGUE, type Role } from "@bundler/shared";
import { ApiError } from "../../../lib/api-error.ts";
import type { StoredAuth } from "../../../lib/key-store.ts";

/** How often start-up asks again while the server cannot answer for the stored key. */
export const STARTUP_RETRY_MS = 5000;

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

export type StartupFailure =
  | { kind: "rejected" }
  | { kind: "unreachable"; title: string; hint: string };

/**
 * What a failed start-up validation means: a rejected key is cleared and the modal shows;
 * anything else keeps the key and says why the server could not answer (SPEC §8).
 */
export function startupFailure(error: unknown): StartupFailure {
  if (error instanceof ApiError) {
    if (isKeyRejection(error)) return { kind: "rejected" };
    return { kind: "unreachable", title: error.title, hint: error.hint };
  }
  return { kind: "unreachable", ...ERROR_CATALOGUE.unexpected };
}
