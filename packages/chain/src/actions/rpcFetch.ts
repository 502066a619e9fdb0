import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { type HttpTransport, type HttpTransportConfig, http } from "viem";

/**
 * The part of a fetch answer that the JSON-RPC callers read (viem's http transport, rpcBatch,
 * the dev builder): status, headers and the body as text or JSON.
 */
export interface RpcResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  readonly body: null;
  text(): Promise<string>;
  json(): Promise<unknown>;
}

export interface RpcFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal | null;
  /** A connection silent this long fails the call (fetch's own limit is 300 s as well). */
  idleTimeoutMs?: number;
}

const IDLE_TIMEOUT_MS = 300_000;

const httpAgent = new HttpAgent({ keepAlive: true, scheduling: "lifo" });
const httpsAgent = new HttpsAgent({ keepAlive: true, scheduling: "lifo" });

/**
 * `fetch` for JSON-RPC over node:http with kept-alive connections. Node's built-in fetch
 * (undici behind web streams) cost ~240 µs of CPU a call here against ~50 µs for the same
 * POST through node:http, and a server under load makes hundreds of chain calls a second.
 * Aborting the signal ends the request and rejects with an AbortError, as fetch does; a
 * connection that fails, or stays silent for `idleTimeoutMs` (without which a node that hangs
 * would hold a caller with no timeout of its own, such as rpcBatch, for good), rejects with
 * an error.
 */
export const rpcFetch = (input: string | URL, init: RpcFetchInit = {}): Promise<RpcResponse> => {
  const url = typeof input === "string" ? new URL(input) : input;
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  const https = url.protocol === "https:";
  const body = init.body === undefined ? undefined : Buffer.from(init.body);
  return new Promise<RpcResponse>((resolve, reject) => {
    const request = (https ? httpsRequest : httpRequest)(
      url,
      {
        method: init.method ?? "GET",
        agent: https ? httpsAgent : httpAgent,
        timeout: init.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
        headers: {
          ...init.headers,
          ...(body ? { "content-length": String(body.byteLength) } : {}),
        },
      },
      (response) => {
        readBody(response).then((text) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(answer(response, text));
        }, fail);
      },
    );
    const fail = (error: Error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(error);
    };
    const onAbort = () => {
      const error = abortError(signal);
      request.destroy(error);
      fail(error);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", fail);
    request.on("timeout", () => request.destroy(new Error(`no answer from ${url.host}`)));
    request.end(body);
  });
};

const readBody = (response: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    response.on("error", reject);
    response.on("aborted", () => reject(new Error("the server closed the response early")));
  });

const answer = (response: IncomingMessage, text: string): RpcResponse => {
  const status = response.statusCode ?? 0;
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: response.statusMessage ?? "",
    headers: {
      get: (name) => {
        const value = response.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    },
    body: null,
    text: async () => text,
    json: async () => JSON.parse(text),
  };
};

const abortError = (signal: AbortSignal | undefined): Error =>
  signal?.reason instanceof Error
    ? signal.reason
    : new DOMException("This operation was aborted", "AbortError");

/** viem's http transport with rpcFetch under it: the transport for every chain call. */
export const rpcTransport = (url: string, config: HttpTransportConfig = {}): HttpTransport =>
  http(url, { ...config, fetchFn: rpcFetch as unknown as typeof fetch });
