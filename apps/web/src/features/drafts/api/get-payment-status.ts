import { paymentStatusRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { draftRequest } from "./draft-request.ts";

export const PAYMENT_POLL_MS = 5000;

export const getPaymentStatus = (id: string, signal?: AbortSignal) =>
  draftRequest(paymentStatusRoute, id, signal);

export const getPaymentStatusQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["drafts", "payment-status", id] as const,
    queryFn: ({ signal }) => getPaymentStatus(id, signal),
  });

/** Polls every 5 s while `enabled` (the dialog is waiting for the fee). */
export const usePaymentStatus = (id: string, enabled: boolean) =>
  useQuery({
    ...getPaymentStatusQueryOptions(id),
    enabled,
    refetchInterval: enabled ? PAYMENT_POLL_MS : false,
    gcTime: 0,
  });
