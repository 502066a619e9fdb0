import { adminUserRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";
import { payoutPollInterval } from "../utils/claim-state.ts";
import { adminKey } from "./get-admin-stats.ts";

/** One user with stats, launches, drafts, referral standing and claims. Silent: see the page. */
export const getAdminUser = (id: string, signal?: AbortSignal) =>
  apiFetch(adminUserRoute, { params: { id }, signal, silent: true });

export const getAdminUserQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...adminKey, "user", id] as const,
    queryFn: ({ signal }) => getAdminUser(id, signal),
  });

/** Read again every 5 s while one of the user's claims has a payout on its way. */
export const useAdminUser = (id: string) =>
  useQuery({
    ...getAdminUserQueryOptions(id),
    refetchInterval: (query) => payoutPollInterval(query.state.data?.user.claims),
  });
