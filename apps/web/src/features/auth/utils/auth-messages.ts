import { AUTH_MESSAGES } from "@bundler/shared";
import type { ApiError } from "../../../lib/api-client.ts";

/** What the import form says when validation fails: the server's words, else the spec's. */
export function importFailureMessage(error: ApiError): string {
  if (error.serverMessage) return error.serverMessage;
  if (error.status === 401) return AUTH_MESSAGES.invalidKey;
  return error.status === null || error.status === 429 ? error.title : AUTH_MESSAGES.failed;
}
