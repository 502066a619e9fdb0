import { listBundlesRoute } from "@bundler/shared";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** Every page of the list. */
export const bundlesListKey = ["bundles", "list"] as const;

/** One page of the caller's token bundles (9); a failure toasts the catalogue's entry. */
export const getBundles = (page: number, signal?: AbortSignal) =>
  apiFetch(listBundlesRoute, { query: { page }, signal });

export const getBundlesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...bundlesListKey, page] as const,
    queryFn: ({ signal }) => getBundles(page, signal),
  });

/** A page of bundles; the previous page stays on screen while the next one loads. */
export const useBundles = (page: number) =>
  useQuery({ ...getBundlesQueryOptions(page), placeholderData: keepPreviousData });
