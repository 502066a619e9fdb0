import type { RouteDef } from "@bundler/shared";
import { ApiError, apiFetch, type RouteResponse } from "../../../lib/api-client.ts";

/** A contract path with its `:id` filled in, e.g. `/api/draft/:id/payment` -> `/api/draft/42/payment`. */
export const draftPath = (route: RouteDef, id: string): string =>
  route.path.replace(":id", encodeURIComponent(id));

/**
 * Calls a `/api/draft/:id/...` route through the client's path form (it has no path
 * parameters yet) and checks the answer against the route's schema. Silent: each caller
 * words its own failure toast (SPEC §8).
 */
export async function draftRequest<R extends RouteDef>(
  route: R,
  id: string,
  signal?: AbortSignal,
): Promise<RouteResponse<R>> {
  const body = await apiFetch<unknown>(draftPath(route, id), {
    method: route.method,
    signal,
    silent: true,
  });
  const parsed = route.response.safeParse(body);
  if (!parsed.success) throw new ApiError(200, "The server sent an unexpected response");
  return parsed.data as RouteResponse<R>;
}

/** The server's own words for a failure, else the fallback. */
export const failureText = (error: unknown, fallback: string): string =>
  error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
