import { walletBalancesRoute } from "@bundler/shared";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** One request for every launch wallet; answers a map keyed by lowercase address. */
export async function getBalances(addresses: readonly string[], signal?: AbortSignal) {
  const response = await apiFetch(walletBalancesRoute, {
    body: { addresses: [...addresses] },
    signal,
    silent: true,
  });
  return new Map(response.balances.map((entry) => [entry.address.toLowerCase(), entry.balance]));
}

export const getBalancesQueryOptions = (addresses: readonly string[]) =>
  queryOptions({
    queryKey: ["wallets", "balances", addresses] as const,
    queryFn: ({ signal }) => getBalances(addresses, signal),
    enabled: addresses.length > 0,
  });

/** The last balances stay shown while a changed set of addresses is asked for. */
export const useBalances = (
  addresses: readonly string[],
  options: { enabled: boolean; refetchInterval: () => number | false },
) =>
  useQuery({
    ...getBalancesQueryOptions(addresses),
    enabled: options.enabled && addresses.length > 0,
    refetchInterval: options.refetchInterval,
    placeholderData: keepPreviousData,
  });
