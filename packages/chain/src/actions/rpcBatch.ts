import { HttpRequestError } from "viem";
import { rpcFetch } from "./rpcFetch.ts";

/** Sends many JSON-RPC calls in one HTTP request (a JSON-RPC batch) and answers in order. */
export const rpcBatch = async <T>(
  url: string,
  calls: Array<{ method: string; params: unknown[] }>,
): Promise<Array<{ result?: T; error?: { code: number; message: string; data?: unknown } }>> => {
  if (calls.length === 0) return [];
  const body = JSON.stringify(calls.map((call, id) => ({ jsonrpc: "2.0", id, ...call })));
  // Every way the node can fail to answer is viem's HttpRequestError, as a viem client's own
  // calls throw it: the server tells the chain's failures from its own by that (a 503).
  const failed = (details: string, status?: number) =>
    new HttpRequestError({
      url,
      body: { batch: calls.length },
      details,
      ...(status ? { status } : {}),
    });
  const response = await rpcFetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  }).catch((cause: Error) => {
    throw failed(cause.message);
  });
  if (!response.ok) throw failed(`RPC batch failed: HTTP ${response.status}`, response.status);
  const answers = (await response.json().catch((cause: Error) => {
    throw failed(`RPC batch answer unreadable: ${cause.message}`);
  })) as Array<{
    id: number;
    result?: T;
    error?: { code: number; message: string };
  }>;
  if (!Array.isArray(answers)) throw failed("RPC batch answer is not a list");
  const byId = new Map(answers.map((answer) => [answer.id, answer]));
  return calls.map(
    (_, id) => byId.get(id) ?? { error: { code: -32603, message: "no answer in batch" } },
  );
};
