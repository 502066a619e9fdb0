import { keyPaymentStatusRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

export const KEY_PAYMENT_POLL_MS = 5000;

/** A key purchase's status; once paid, exactly one answer carries the new key. */
export const getKeyPaymentStatus = (paymentId: string, deviceId: string, signal?: AbortSignal) =>
  apiFetch(keyPaymentStatusRoute, { query: { paymentId, deviceId }, signal, silent: true });

export const getKeyPaymentStatusQueryOptions = (paymentId: string, deviceId: string) =>
  queryOptions({
    queryKey: ["auth", "key-payment", paymentId] as const,
    queryFn: ({ signal }) => getKeyPaymentStatus(paymentId, deviceId, signal),
  });

/** Polls every 5 s while `enabled` (the dialog is waiting for the payment). */
export const useKeyPaymentStatus = (paymentId: string, deviceId: string, enabled: boolean) =>
  useQuery({
    ...getKeyPaymentStatusQueryOptions(paymentId, deviceId),
    enabled,
    refetchInterval: enabled ? KEY_PAYMENT_POLL_MS : false,
    gcTime: 0,
  });
