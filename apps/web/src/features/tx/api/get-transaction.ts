import { getTransactionRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** SPEC §9: transaction statuses are polled every 3 s until they settle. */
export const TX_POLL_MS = 3000;

/** Silent: the page shows the failure itself. */
export const getTransaction = (hash: string, signal?: AbortSignal) =>
  apiFetch(getTransactionRoute, { params: { hash }, signal, silent: true });

export const getTransactionQueryOptions = (hash: string) =>
  queryOptions({
    queryKey: ["tx", hash] as const,
    queryFn: ({ signal }) => getTransaction(hash, signal),
  });

/** Polls while the transaction is pending. */
export const useTransaction = (hash: string) =>
  useQuery({
    ...getTransactionQueryOptions(hash),
    retry: false,
    refetchInterval: (query) =>
      query.state.data?.transaction.status === "pending" ? TX_POLL_MS : false,
  });
