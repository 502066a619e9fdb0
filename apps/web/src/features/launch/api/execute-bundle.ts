import { executeBundleRoute } from "@bundler/shared";
import { apiFetch } from "../../../lib/api-client.ts";
import { sealAccessKeyPayload } from "../../../lib/envelope.ts";

/**
 * Starts the launch of the paid draft being edited through `POST /api/bundle/execute`: the
 * payload names the draft, encrypted with the caller's access key. The server launches the
 * saved draft, so nothing else (no private key) is sent. Silent: the caller toasts.
 */
export async function executeBundle(draftId: string, accessKey: string) {
  const data = await sealAccessKeyPayload(accessKey, JSON.stringify({ draftId }));
  return apiFetch(executeBundleRoute, { body: { data }, silent: true });
}
