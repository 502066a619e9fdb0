import { getBumperRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { BUMPER_REFRESH_MS } from "../utils/timings.ts";
import { bumperKey } from "./get-bumpers.ts";

/** One bumper with every bump it made (the chart). Silent: the page says what failed. */
export const getBumper = (id: string, signal?: AbortSignal) =>
  apiFetch(getBumperRoute, { params: { id }, signal, silent: true });

export const getBumperQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...bumperKey, "detail", id] as const,
    queryFn: ({ signal }) => getBumper(id, signal),
  });

/** The selected bumper, refreshed every 10 s while it is active (SPEC §4). */
export const useBumper = (id: string | null) =>
  useQuery({
    ...getBumperQueryOptions(id ?? ""),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.bumper.active ? BUMPER_REFRESH_MS : false),
  });
