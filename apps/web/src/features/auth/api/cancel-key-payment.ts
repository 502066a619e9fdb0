import { cancelKeyPaymentRoute } from "@bundler/shared";
import { apiFetch } from "../../../lib/api-client.ts";

/** Closes an open key purchase; BNB arriving afterwards is refunded by the server. */
export const cancelKeyPayment = (paymentId: string, deviceId: string) =>
  apiFetch(cancelKeyPaymentRoute, { body: { paymentId, deviceId }, silent: true });
