import toast from "react-hot-toast";
import { ApiError, notifyApiError } from "../../../lib/api-client.ts";

/**
 * One toast for a failed wallet call (SPEC §8): the server's message when it sent one, else
 * the error catalogue's entry (offline, rate limit, ...). Other failures show `known` when the
 * error carries one of those messages, else `fallback`.
 */
export function toastFailure(
  error: unknown,
  fallback: string,
  known: readonly string[] = [],
): void {
  if (error instanceof ApiError) {
    if (error.serverMessage) toast.error(error.serverMessage);
    else notifyApiError(error);
    return;
  }
  const message = error instanceof Error ? error.message : "";
  toast.error(known.includes(message) ? message : fallback);
}
