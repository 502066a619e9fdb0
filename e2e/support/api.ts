import type { Draft, DraftInput, LaunchPlan } from "@bundler/shared";

/** A call the server refused: its status and body, in the message too. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`${what}: ${status} ${body}`);
  }
}

/**
 * The server's HTTP API as a test calls it: JSON in and out, `x-auth-key` on every call, any
 * answer but 2xx thrown as an `ApiCallError`.
 */
export interface Api {
  url: string;
  /** The access key sent with every call (null: none). */
  key: string | null;
  get<T = Record<string, unknown>>(path: string): Promise<T>;
  post<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T>;
  put<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T>;
  /** `POST /api/draft/create`; answers the draft's id. */
  createDraft(draft: DraftInput): Promise<string>;
  /** `GET /api/draft/:id`: the whole draft, keys included. */
  getDraft(id: string): Promise<Draft>;
  /** `GET /api/draft/:id/summary`: the launch plan of a saved draft. */
  draftPlan(id: string): Promise<LaunchPlan>;
  /** The local chain's faucet: sends `amount` BNB and answers once it is mined. */
  faucet(address: string, amount: string): Promise<void>;
}

export const apiClient = (url: string, key: string | null): Api => {
  const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(key ? { "x-auth-key": key } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new ApiCallError(response.status, text, `${method} ${path}`);
    return JSON.parse(text) as T;
  };
  const api: Api = {
    url,
    key,
    get: (path) => request("GET", path),
    post: (path, body) => request("POST", path, body),
    put: (path, body) => request("PUT", path, body),
    createDraft: async (draft) =>
      (await api.post<{ draftId: string }>("/api/draft/create", draft)).draftId,
    getDraft: async (id) => (await api.get<{ draft: Draft }>(`/api/draft/${id}`)).draft,
    draftPlan: async (id) => (await api.get<{ plan: LaunchPlan }>(`/api/draft/${id}/summary`)).plan,
    faucet: async (address, amount) => {
      await api.post("/api/dev/faucet", { address, amount });
    },
  };
  return api;
};

/**
 * Asks `check` every `intervalMs` until it answers something other than undefined; throws
 * after `timeoutMs` with `what`.
 */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  { timeoutMs = 60_000, intervalMs = 500 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await check();
    if (answer !== undefined) return answer;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
