import {
  ADMIN_USERS_PAGE_SIZE,
  type AdminSortField,
  adminUsersRoute,
  type SortDirection,
} from "@bundler/shared";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { adminKey } from "./get-admin-stats.ts";

export interface AdminUsersParams {
  page: number;
  sortField: AdminSortField;
  sortDirection: SortDirection;
  /** Searched by the server over every user (see adminUsersQuerySchema). */
  search?: string;
}

/** One page of users, 20 a page, sorted and searched by the server across every user. Silent: see the page. */
export const getAdminUsers = (params: AdminUsersParams, signal?: AbortSignal) =>
  apiFetch(adminUsersRoute, {
    query: { ...params, limit: ADMIN_USERS_PAGE_SIZE },
    signal,
    silent: true,
  });

export const getAdminUsersQueryOptions = (params: AdminUsersParams) =>
  queryOptions({
    queryKey: [...adminKey, "users", params] as const,
    queryFn: ({ signal }) => getAdminUsers(params, signal),
  });

/** The previous page stays on screen while the next one loads. */
export const useAdminUsers = (params: AdminUsersParams) =>
  useQuery({ ...getAdminUsersQueryOptions(params), placeholderData: keepPreviousData });
