import {
  adminNewsRoute,
  editNewsRoute,
  type NewsInput,
  newsVisibilityRoute,
  publishNewsRoute,
} from "@bundler/shared";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { adminKey } from "./get-admin-stats.ts";

/** The banner's query key (features/news): a change here shows there at once. */
const bannerKey = ["news"] as const;

/** Every news item, shown or hidden. Silent: the section says what failed. */
export const getAdminNews = (signal?: AbortSignal) =>
  apiFetch(adminNewsRoute, { signal, silent: true });

export const getAdminNewsQueryOptions = () =>
  queryOptions({
    queryKey: [...adminKey, "news"] as const,
    queryFn: ({ signal }) => getAdminNews(signal),
  });

export const useAdminNews = () => useQuery(getAdminNewsQueryOptions());

export type NewsChange =
  | { kind: "publish"; input: NewsInput }
  | { kind: "edit"; id: string; input: NewsInput }
  | { kind: "visibility"; id: string; active: boolean };

/** Publishes, edits, hides or shows a news item. Silent: the section toasts the answer. */
export const changeNews = (change: NewsChange) => {
  if (change.kind === "publish")
    return apiFetch(publishNewsRoute, { body: change.input, silent: true });
  if (change.kind === "edit")
    return apiFetch(editNewsRoute, {
      params: { id: change.id },
      body: change.input,
      silent: true,
    });
  return apiFetch(newsVisibilityRoute, {
    params: { id: change.id },
    body: { active: change.active },
    silent: true,
  });
};

export const useChangeNews = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeNews,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: getAdminNewsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: bannerKey }),
      ]),
  });
};
