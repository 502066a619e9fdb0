import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One HTTP request seen by the proxy: the JSON-RPC methods it carried. */
export interface SeenRequest {
  batch: boolean;
  methods: string[];
}

/** One JSON-RPC call seen by the proxy, with its params. */
export interface SeenCall {
  method: string;
  params: unknown[];
}

/** One JSON-RPC call as the proxy reads it. */
interface RpcCall {
  id?: unknown;
  method: string;
  params?: unknown[];
}

/**
 * A node's refusal of a call, as a test sets it: the error message the proxy answers instead of
 * forwarding the call (null: forward it).
 */
export type RefuseCall = (call: SeenCall) => string | null;

/**
 * A node:http proxy in front of anvil that records every HTTP request it forwards, and answers
 * a JSON-RPC error for the calls `refuse` names (as a public node refuses a wide `eth_getLogs`);
 * the other calls of a batch are forwarded and answered in their places.
 */
export const startCountingProxy = async (target: string) => {
  const seen: SeenRequest[] = [];
  const calls: SeenCall[] = [];
  let refuse: RefuseCall = () => null;
  const forward = async (body: string) => {
    const upstream = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    return { status: upstream.status, text: await upstream.text() };
  };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const message = JSON.parse(body) as RpcCall | RpcCall[];
    const list = Array.isArray(message) ? message : [message];
    seen.push({ batch: Array.isArray(message), methods: list.map((m) => m.method) });
    for (const m of list) calls.push({ method: m.method, params: m.params ?? [] });
    const refusals = list.map((c) => refuse({ method: c.method, params: c.params ?? [] }));
    const reply = (status: number, text: string) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(text);
    };
    if (refusals.every((r) => r === null)) {
      const { status, text } = await forward(body);
      return reply(status, text);
    }
    const errorOf = (call: RpcCall, text: string) => ({
      jsonrpc: "2.0",
      id: call.id ?? null,
      error: { code: -32005, message: text },
    });
    if (!Array.isArray(message))
      return reply(200, JSON.stringify(errorOf(message, refusals[0] as string)));
    const passed = list.filter((_, i) => refusals[i] === null);
    const answers =
      passed.length > 0
        ? (JSON.parse((await forward(JSON.stringify(passed))).text) as Array<{ id?: unknown }>)
        : [];
    const byId = new Map(answers.map((a) => [JSON.stringify(a.id), a]));
    reply(
      200,
      JSON.stringify(
        list.map((call, i) =>
          refusals[i] === null
            ? byId.get(JSON.stringify(call.id))
            : errorOf(call, refusals[i] as string),
        ),
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    /** Every call forwarded or refused, with its params, in order. */
    calls,
    reset: () => {
      seen.length = 0;
      calls.length = 0;
    },
    /** Sets which calls the proxy refuses from now on (`() => null`: none). */
    refuse: (rule: RefuseCall) => {
      refuse = rule;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
