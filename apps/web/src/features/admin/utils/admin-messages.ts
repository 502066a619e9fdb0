import { ApiError } from "../../../lib/api-error.ts";

/** SPEC §8's admin toasts and §6's warning, word for word. */
export const ADMIN_MESSAGES = {
  loadFailed: "Failed to load admin data",
  userLoadFailed: "Failed to load user details",
  roleUpdated: (role: string) => `Role updated to ${role}`,
  roleFailed: "Failed to update role",
  keyCopied: "Private key copied to clipboard",
  onlyAdmins: "Only admins can view private keys",
  keyFailed: "Failed to retrieve private key",
  keyWarning:
    "Every view of a payment private key is logged and monitored. View it only for a legitimate refund.",
} as const;

/** The server's own words for a refusal when it gave them, else the spec's fallback (SPEC §8). */
export const serverMessageOr = (error: unknown, fallback: string): string =>
  error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;

/**
 * A failure as the rules say it: the spec's words first, then the server's reason when it gave
 * one ("Failed to update role: The last superadmin cannot be demoted: ...").
 */
export const failureWithReason = (error: unknown, words: string): string =>
  error instanceof ApiError && error.serverMessage ? `${words}: ${error.serverMessage}` : words;
