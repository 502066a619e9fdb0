import { listBumpersRoute } from "@bundler/shared";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/api-client.ts";

/** Every bumper query starts with this: actions invalidate it all at once. */
export const bumperKey = ["bumper"] as const;

/** The user's bumpers. Silent: the page shows "Failed to load bumpers" itself. */
export const getBumpers = (signal?: AbortSignal) =>
  apiFetch(listBumpersRoute, { signal, silent: true });

export const getBumpersQueryOptions = () =>
  queryOptions({
    queryKey: [...bumperKey, "list"] as const,
    queryFn: ({ signal }) => getBumpers(signal),
  });

/** Refreshed with the selected bumper while it runs, so the tabs' counts follow it. */
export const useBumpers = (refetchInterval: number | false) =>
  useQuery({ ...getBumpersQueryOptions(), refetchInterval });
