import { accountRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** Every account query starts with this; switching keys drops them with the rest. */
export const accountKey = ["account"] as const;

/** The logged-in key's kind (free / paid / minted), role and creation date. */
export const getAccount = (signal?: AbortSignal) => apiFetch(accountRoute, { signal });

export const getAccountQueryOptions = () =>
  queryOptions({
    queryKey: [...accountKey, "info"] as const,
    queryFn: ({ signal }) => getAccount(signal),
  });

export const useAccount = () => useQuery(getAccountQueryOptions());
