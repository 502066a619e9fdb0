import { listDispersalsRoute } from "@bundler/shared";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** Every page of the history: what creating, cancelling and a status change invalidate. */
export const dispersalsListKey = ["dispersal", "list"] as const;

/** One page of the caller's dispersals, newest first. Silent: the section shows the failure. */
export const getDispersals = (page: number, signal?: AbortSignal) =>
  apiFetch(listDispersalsRoute, { query: { page }, signal, silent: true });

export const getDispersalsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...dispersalsListKey, page] as const,
    queryFn: ({ signal }) => getDispersals(page, signal),
  });

/** A page of past dispersals; the previous page stays on screen while the next one loads. */
export const useDispersals = (page: number) =>
  useQuery({ ...getDispersalsQueryOptions(page), placeholderData: keepPreviousData });
