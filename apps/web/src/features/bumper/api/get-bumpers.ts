import { type BumperTab, listBumpersRoute } from "@bundler/shared";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** Every bumper query starts with this: actions invalidate it all at once. */
export const bumperKey = ["bumper"] as const;

export interface BumpersPageParams {
  tab: BumperTab;
  /** 1-based. */
  page: number;
}

/** One page of one tab of the user's bumpers. Silent: the page shows "Failed to load bumpers". */
export const getBumpers = (params: BumpersPageParams, signal?: AbortSignal) =>
  apiFetch(listBumpersRoute, { query: { ...params }, signal, silent: true });

/** Without params: the key every page of the list shares (to invalidate them all). */
export const getBumpersQueryOptions = (params: BumpersPageParams = { tab: "active", page: 1 }) =>
  queryOptions({
    queryKey: [...bumperKey, "list", params] as const,
    queryFn: ({ signal }) => getBumpers(params, signal),
  });

/** The list of every page: what an action or a bump's progress refreshes. */
export const bumpersListKey = [...bumperKey, "list"] as const;

/** Refreshed with the selected bumper while it runs, so the tabs' counts follow it. */
export const useBumpers = (params: BumpersPageParams, refetchInterval: number | false) =>
  useQuery({
    ...getBumpersQueryOptions(params),
    refetchInterval,
    placeholderData: keepPreviousData,
  });
