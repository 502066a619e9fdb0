import { AUTH_MESSAGES, validateKeyRoute } from "@bundler/shared";
import { ApiError } from "../../../lib/api-error.ts";

/**
 * What the import form says before asking the server: a blank key, or a value no key can be
 * (longer than the contract allows), never the schema's own words. Null when worth asking.
 */
export function importKeyProblem(value: string): string | null {
  if (!value.trim()) return AUTH_MESSAGES.enterKey;
  return validateKeyRoute.body.safeParse({ key: value }).success ? null : AUTH_MESSAGES.invalidKey;
}

/**
 * What the import form says when it fails. A server's answer: its words (a refused shape is
 * just an invalid key), else the spec's; no answer: the catalogue's reason; anything that
 * threw on the way: "Authentication failed. Please try again."
 */
export function importFailureMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return AUTH_MESSAGES.failedRetry;
  if (error.status === 400) return AUTH_MESSAGES.invalidKey;
  if (error.serverMessage) return error.serverMessage;
  if (error.status === 401) return AUTH_MESSAGES.invalidKey;
  return error.status === null || error.status === 429 ? error.title : AUTH_MESSAGES.failed;
}

/**
 * "Get Free Access" failing: the server refused or could not answer (a second key for this
 * device is a 409), or something threw on the way.
 */
export function generateFailureMessage(error: unknown): string {
  return error instanceof ApiError ? AUTH_MESSAGES.generateFailed : AUTH_MESSAGES.newKeyFailed;
}
