import { ADMIN_DEFAULT_SORT, type AdminSortField, type SortDirection } from "@bundler/shared";

export interface UserSort {
  sortField: AdminSortField;
  sortDirection: SortDirection;
}

export const DEFAULT_USER_SORT: UserSort = { ...ADMIN_DEFAULT_SORT };

/**
 * SPEC §9: clicking the active column toggles its direction; a new column starts ascending.
 *
 * @example
 * nextUserSort({ sortField: "launchCount", sortDirection: "desc" }, "launchCount") // asc
 * nextUserSort({ sortField: "launchCount", sortDirection: "desc" }, "role") // role asc
 */
export function nextUserSort(current: UserSort, field: AdminSortField): UserSort {
  if (current.sortField !== field) return { sortField: field, sortDirection: "asc" };
  return { sortField: field, sortDirection: current.sortDirection === "asc" ? "desc" : "asc" };
}
