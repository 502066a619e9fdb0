import { getAddressRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { TX_POLL_MS } from "./get-transaction.ts";

/** Silent: the page shows the failure itself. */
export const getAddress = (address: string, signal?: AbortSignal) =>
  apiFetch(getAddressRoute, { params: { address }, signal, silent: true });

export const getAddressQueryOptions = (address: string) =>
  queryOptions({
    queryKey: ["tx", "address", address.toLowerCase()] as const,
    queryFn: ({ signal }) => getAddress(address, signal),
  });

const OPEN = new Set(["signed", "sent"]);

/** Polls while one of the listed transactions is still open (its balance and nonce will move). */
export const useAddress = (address: string) =>
  useQuery({
    ...getAddressQueryOptions(address),
    retry: false,
    refetchInterval: (query) =>
      query.state.data?.address.transactions.some((tx) => OPEN.has(tx.status)) ? TX_POLL_MS : false,
  });
