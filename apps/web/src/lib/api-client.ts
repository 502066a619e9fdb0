import type { RouteDef } from "@bundler/shared";
import toast from "react-hot-toast";
import { env } from "../config/env.ts";
import { ApiError, problemPlaceOf, serverMessageOf } from "./api-error.ts";

export { ApiError } from "./api-error.ts";

type Schema = RouteDef["response"];
type Output<S extends Schema> = NonNullable<S["~standard"]["types"]>["output"];
type Input<S extends Schema> = NonNullable<S["~standard"]["types"]>["input"];

/** The body a route accepts, typed by its zod schema. */
export type RouteBody<R extends RouteDef> = R["body"] extends Schema ? Input<R["body"]> : never;
/** What a route answers on success, typed by its zod schema. */
export type RouteResponse<R extends RouteDef> = Output<R["response"]>;

export type PathParams = Record<string, string | number>;

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions<Body = unknown> {
  body?: Body;
  query?: QueryParams;
  signal?: AbortSignal;
  /** Skip the catalogue toast; the caller shows its own message. */
  silent?: boolean;
  /** Values for the route path's `:name` segments, e.g. `{ id }` for `/api/draft/:id`. */
  params?: PathParams;
}

export interface PathRequestOptions extends RequestOptions {
  method?: RouteDef["method"];
}

export interface ApiClientDeps {
  baseUrl: string;
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  getAuthKey: () => string | null;
  /** Called on a 401 from a route that needs a key: the stored key is no longer good. */
  onUnauthorized: () => void;
  notify: (error: ApiError) => void;
}

/** Fills a route path's `:name` segments, URL-encoded; a missing value is a programming error. */
export function fillPath(path: string, params: PathParams = {}): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === "") throw new Error(`Missing path parameter :${name}`);
    return encodeURIComponent(String(value));
  });
}

export function buildUrl(baseUrl: string, path: string, query?: QueryParams): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  const search = params.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ""}`;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

const isSuccessBody = (body: unknown): boolean =>
  typeof body === "object" && body !== null && (body as { success?: unknown }).success !== false;

export function createApiClient(deps: ApiClientDeps) {
  async function request(
    method: RouteDef["method"],
    path: string,
    options: RequestOptions,
    route?: RouteDef,
  ): Promise<unknown> {
    const fail = (error: ApiError): never => {
      if (error.status === 401 && route?.access !== "public") deps.onUnauthorized();
      if (!options.silent) deps.notify(error);
      throw error;
    };

    const headers: Record<string, string> = { accept: "application/json" };
    const key = deps.getAuthKey();
    if (key) headers["x-auth-key"] = key;
    if (options.body !== undefined) headers["content-type"] = "application/json";

    let response: Response;
    try {
      response = await deps.fetch(buildUrl(deps.baseUrl, path, options.query), {
        method,
        headers,
        credentials: "include",
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (cause) {
      // A cancelled query is not a failure worth telling the user about.
      if (options.signal?.aborted) throw cause;
      return fail(new ApiError(null));
    }

    const body = await readJson(response);
    if (!response.ok || !isSuccessBody(body)) {
      return fail(new ApiError(response.status, serverMessageOf(body), problemPlaceOf(body)));
    }
    if (!route) return body;
    const parsed = route.response.safeParse(body);
    return parsed.success
      ? parsed.data
      : fail(new ApiError(response.status, "The server sent an unexpected response"));
  }

  function apiFetch<R extends RouteDef>(
    route: R,
    options?: RequestOptions<RouteBody<R>>,
  ): Promise<RouteResponse<R>>;
  function apiFetch<T>(path: string, options?: PathRequestOptions): Promise<T>;
  function apiFetch(target: RouteDef | string, options: PathRequestOptions = {}) {
    if (typeof target === "string") {
      const method = options.method ?? (options.body === undefined ? "GET" : "POST");
      return request(method, target, options);
    }
    return request(target.method, fillPath(target.path, options.params), options, target);
  }

  return { apiFetch };
}

let authKey: string | null = null;
let unauthorizedHandler: () => void = () => {};

/** The auth provider keeps the client's key in step with the session. */
export const setApiAuthKey = (key: string | null): void => {
  authKey = key;
};

/** The auth provider registers what a 401 does (clear the key, show the modal). */
export const setUnauthorizedHandler = (handler: () => void): void => {
  unauthorizedHandler = handler;
};

/** One toast per failure; the same kind of failure replaces its previous toast. */
export const notifyApiError = (error: ApiError): void => {
  toast.error(`${error.title}\n${error.hint}`, { id: `api-error:${error.key}` });
};

/** A server path as a URL the browser can load itself, e.g. an `<img src>` (no key is sent). */
export const apiUrl = (path: string): string => buildUrl(env.apiBase, path);

export const { apiFetch } = createApiClient({
  baseUrl: env.apiBase,
  fetch: (input, init) => globalThis.fetch(input, init),
  getAuthKey: () => authKey,
  onUnauthorized: () => unauthorizedHandler(),
  notify: notifyApiError,
});
