import { startKeyPaymentRoute } from "@bundler/shared";
import { apiFetch } from "../../../lib/api-client.ts";

/**
 * Opens a key purchase: a payment address and the BNB to send for this device, less the
 * referral discount when `referralCode` names a code. Silent: the dialog words its failure.
 */
export const startKeyPayment = (deviceId: string, referralCode: string | undefined) =>
  apiFetch(startKeyPaymentRoute, { body: { deviceId, referralCode }, silent: true });
