import { bumperWalletsRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { BUMPER_REFRESH_MS } from "../utils/timings.ts";
import { bumperKey } from "./get-bumpers.ts";

/** Every wallet the bumper has used, the current one marked. Silent: the table says so. */
export const getBumperWallets = (id: string, signal?: AbortSignal) =>
  apiFetch(bumperWalletsRoute, { params: { id }, signal, silent: true });

export const getBumperWalletsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...bumperKey, "wallets", id] as const,
    queryFn: ({ signal }) => getBumperWallets(id, signal),
  });

export const useBumperWallets = (id: string, active: boolean) =>
  useQuery({
    ...getBumperWalletsQueryOptions(id),
    refetchInterval: active ? BUMPER_REFRESH_MS : false,
  });
