import { getNewsRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

export const getNews = async (signal?: AbortSignal) =>
  (await apiFetch(getNewsRoute, { signal })).news;

export const getNewsQueryOptions = () =>
  queryOptions({
    queryKey: ["news"] as const,
    queryFn: ({ signal }) => getNews(signal),
    staleTime: 5 * 60_000,
    meta: { public: true },
  });

export const useNews = () => useQuery(getNewsQueryOptions());
