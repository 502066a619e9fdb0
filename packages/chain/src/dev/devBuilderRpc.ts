import type { IncomingMessage, ServerResponse } from "node:http";
import { rpcFetch } from "../actions/rpcFetch.ts";

/** A JSON-RPC error as the dev builder answers it (code, message, optional data). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export type Handler = (method: string, args: unknown[]) => Promise<unknown>;

/**
 * Answers one HTTP request of JSON-RPC: a request `forward` takes goes to anvil untouched, a
 * `failing` one gets HTTP 503 (a fault a test set), the rest are answered call by call.
 */
export const serve = async (
  request: IncomingMessage,
  response: ServerResponse,
  handle: Handler,
  forward: (calls: unknown[], body: Buffer) => Promise<string> | undefined,
  failing: (methods: unknown[]) => boolean,
) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const replyText = (text: string) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(text);
  };
  const reply = (answer: unknown) => replyText(JSON.stringify(answer));
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    return reply({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
  }
  const calls = Array.isArray(parsed) ? parsed : [parsed];
  if (failing(calls.map((m) => (m as { method?: unknown } | null)?.method))) {
    response.writeHead(503, { "content-type": "text/plain" });
    return response.end("service unavailable (dev builder fault)");
  }
  const forwarded = forward(calls, body);
  if (forwarded) return replyText(await forwarded);
  // A batch is answered as a batch; one holding a bundle runs call by call, in order.
  if (Array.isArray(parsed)) {
    const answers = [];
    for (const message of parsed) answers.push(await answer(message, handle));
    return reply(answers);
  }
  reply(await answer(parsed, handle));
};

/** One JSON-RPC call's answer: its result or its error, with its id. */
const answer = async (raw: unknown, handle: Handler): Promise<object> => {
  const message = (typeof raw === "object" && raw !== null ? raw : {}) as {
    id?: unknown;
    method?: unknown;
    params?: unknown;
  };
  const id = message.id ?? null;
  try {
    if (typeof message.method !== "string")
      throw new RpcError(-32600, "invalid request: method is required");
    const args = Array.isArray(message.params) ? message.params : [];
    return { jsonrpc: "2.0", id, result: await handle(message.method, args) };
  } catch (error) {
    const rpc = error instanceof RpcError ? error : new RpcError(-32603, (error as Error).message);
    return {
      jsonrpc: "2.0",
      id,
      error: { code: rpc.code, message: rpc.message, ...(rpc.data ? { data: rpc.data } : {}) },
    };
  }
};

/** Calls one JSON-RPC method at `url`, answering its result or throwing its error. */
export const jsonRpc = (url: string) => {
  let nextId = 1;
  return async <T = unknown>(method: string, args: unknown[] = []): Promise<T> => {
    const response = await rpcFetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: args }),
    });
    const body = (await response.json()) as {
      result?: T;
      error?: { code: number; message: string; data?: unknown };
    };
    if (body.error) throw new RpcError(body.error.code, body.error.message, body.error.data);
    return body.result as T;
  };
};

export type Node = ReturnType<typeof jsonRpc>;
