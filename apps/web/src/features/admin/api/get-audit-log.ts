import { auditLogRoute } from "@bundler/shared";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { adminKey } from "./get-admin-stats.ts";

/** Superadmins only: one page of the audit log, newest first. Silent: see the page. */
export const getAuditLog = (page: number, signal?: AbortSignal) =>
  apiFetch(auditLogRoute, { query: { page }, signal, silent: true });

export const getAuditLogQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...adminKey, "audit", page] as const,
    queryFn: ({ signal }) => getAuditLog(page, signal),
  });

export const useAuditLog = (page: number) =>
  useQuery({ ...getAuditLogQueryOptions(page), placeholderData: keepPreviousData });
