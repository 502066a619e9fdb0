import { rpcFetch } from "./rpcFetch.ts";

/** Sends many JSON-RPC calls in one HTTP request (a JSON-RPC batch) and answers in order. */
export const rpcBatch = async <T>(
  url: string,
  calls: Array<{ method: string; params: unknown[] }>,
): Promise<Array<{ result?: T; error?: { code: number; message: string; data?: unknown } }>> => {
  if (calls.length === 0) return [];
  const response = await rpcFetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(calls.map((call, id) => ({ jsonrpc: "2.0", id, ...call }))),
  });
  if (!response.ok) throw new Error(`RPC batch failed: HTTP ${response.status}`);
  const answers = (await response.json()) as Array<{
    id: number;
    result?: T;
    error?: { code: number; message: string };
  }>;
  const byId = new Map(answers.map((answer) => [answer.id, answer]));
  return calls.map(
    (_, id) => byId.get(id) ?? { error: { code: -32603, message: "no answer in batch" } },
  );
};
