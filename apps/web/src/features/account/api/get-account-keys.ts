import { accountKeysRoute } from "@bundler/shared";
import { apiFetch } from "../../../lib/api-client.ts";

/**
 * Every private key the server holds for the caller, for the backup file. Not a query: the
 * answer is secret, so it is asked for when the backup is made and never kept in the cache.
 * Silent: the backup panel words the failure.
 */
export const getAccountKeys = () => apiFetch(accountKeysRoute, { silent: true });
