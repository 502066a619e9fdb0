import { dispersalStatusRoute, isFinalDispersalStatus } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { DISPERSAL_POLL_MS } from "../utils/dispersal-status.ts";

/** Silent: the disperser toasts the server's message itself. */
export const getDispersalStatus = (dispersalId: string, signal?: AbortSignal) =>
  apiFetch(dispersalStatusRoute, { query: { dispersalId }, signal, silent: true });

export const getDispersalStatusQueryOptions = (dispersalId: string) =>
  queryOptions({
    queryKey: ["dispersal", "status", dispersalId] as const,
    queryFn: ({ signal }) => getDispersalStatus(dispersalId, signal),
  });

/** Polls every 10 s until the dispersal reaches a final status. */
export const useDispersalStatus = (dispersalId: string | null) =>
  useQuery({
    ...getDispersalStatusQueryOptions(dispersalId ?? ""),
    enabled: dispersalId !== null,
    staleTime: 2000,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status && isFinalDispersalStatus(status) ? false : DISPERSAL_POLL_MS;
    },
  });
