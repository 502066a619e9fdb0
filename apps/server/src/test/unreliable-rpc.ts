import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { rpcFetch } from "@bundler/chain";
import { seeded } from "./seeded.ts";

/** How a dropped answer goes: the connection closed mid-request, or HTTP 502 with no body. */
export type Drop = "close" | "502";

export interface UnreliableRpcOptions {
  /** The endpoint behind the proxy, read at every request (a restarted server's builder moves). */
  upstream: () => string;
  /** Every random choice comes from this seed. */
  seed: number;
  /** Each call is answered by a node 0 to `maxLag` blocks behind the head (default 3). */
  maxLag?: number;
  /**
   * The lag of the node that answers a call of `method`, given the one drawn (default: the one
   * drawn): a test that needs one adversary (the head from a node ahead, receipts and nonces
   * from one behind) says so here.
   */
  lagOf?: (method: string, drawn: number) => number;
  /** The share of answers dropped (default 0.03), after the call reached the node behind. */
  dropRate?: number;
  /** How drops go, one drawn per drop (default both, as public endpoints do both). */
  drops?: readonly Drop[];
  /** An answer's delay in ms from a draw in [0, 1) (default `uniformDelay(2000)`). */
  delayMs?: (draw: number) => number;
  /** eth_getLogs over more blocks than this is refused (default 5,000, BSC's public nodes'). */
  maxLogRange?: number;
}

/** Delays drawn evenly from 0 to `maxMs`. */
export const uniformDelay =
  (maxMs: number) =>
  (draw: number): number =>
    Math.floor(draw * maxMs);

/** What the proxy did, counted since it started. */
export interface UnreliableRpcStats {
  requests: number;
  calls: number;
  /** Answers dropped, by how. */
  dropped: Record<Drop, number>;
  /** Calls answered by a node behind the head. */
  lagging: number;
  /** Receipts a lagging node answered null (their block was above its head). */
  hiddenReceipts: number;
  /** eth_getLogs refused for spanning more than `maxLogRange` blocks. */
  refusedLogRanges: number;
  /** Requests answered 502 because the node behind did not answer (a server down, say). */
  upstreamDown: number;
}

interface Call {
  jsonrpc?: string;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

type Answer = { jsonrpc: "2.0"; id: unknown } & (
  | { result: unknown }
  | { error: { code: number; message: string } }
);

/** What one call becomes: answered here, or sent on (rewritten) and its answer looked at. */
type Plan =
  | { answer: unknown }
  | { error: string }
  | { send: Call; seen?: (result: unknown) => unknown };

/** Tags a node resolves to its own head (BSC's safe and finalized lag further: left as asked). */
const HEAD_TAGS = new Set(["latest", "pending"]);
/** Where each state read takes its block tag. */
const STATE_TAG: Record<string, number> = {
  eth_getTransactionCount: 1,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_call: 1,
  eth_estimateGas: 1,
  eth_createAccessList: 1,
  eth_simulateV1: 1,
  eth_getStorageAt: 2,
};

const hex = (n: bigint) => `0x${n.toString(16)}`;
const isHexNumber = (value: unknown): value is string =>
  typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value);
const numberOf = (value: unknown): bigint | null => (isHexNumber(value) ? BigInt(value) : null);
const blockOf = (result: unknown): bigint | null =>
  result && typeof result === "object"
    ? numberOf(
        (result as { blockNumber?: unknown; number?: unknown }).blockNumber ??
          (result as { number?: unknown }).number,
      )
    : null;

/**
 * A JSON-RPC endpoint in front of a node (the local chain's dev builder) that behaves like a
 * public load-balanced BSC endpoint, for the reliability run's `unreliable-rpc` row:
 *
 * - each call (each call of a batch on its own) is answered by one of several nodes 0 to
 *   `maxLag` blocks apart: a lagging node's `eth_blockNumber` and `latest` block are its own
 *   head, it answers null for a receipt (and a pending transaction for one) above its head,
 *   reads state at its head where asked for "latest" or "pending" (its pending is its latest),
 *   answers "header not found" for a block above its head, and clamps eth_getLogs to its head;
 *   so the head may come from one node and a receipt or a nonce from another;
 * - eth_getLogs over more than `maxLogRange` blocks is refused, as public nodes refuse it
 *   ("exceed maximum block range: 5000");
 * - `dropRate` of the answers are dropped after the call reached the node (a transaction sent,
 *   its hash never heard): the connection closed, or HTTP 502 without a body;
 * - every other answer waits `delayMs` first;
 * - everything else (eth_sendRawTransaction among it) goes through unchanged.
 *
 * Every choice is drawn from `seed` in the order requests arrive, so a run that sends its
 * requests in the same order is replayed. `calm()` passes everything through as it is (a run's
 * set-up), `unsettle()` brings the faults back.
 *
 * @example
 * const rpc = await startUnreliableRpc({ upstream: () => builderUrl, seed: 42 });
 * // LOCAL_RPC_URL=rpc.url on the server; rpc.stats says what it did.
 */
export const startUnreliableRpc = async (options: UnreliableRpcOptions) => {
  const random = seeded(options.seed);
  const maxLag = options.maxLag ?? 3;
  const dropRate = options.dropRate ?? 0.03;
  const drops = options.drops ?? (["close", "502"] as const);
  const delayMs = options.delayMs ?? uniformDelay(2000);
  const maxLogRange = BigInt(options.maxLogRange ?? 5000);
  const stats: UnreliableRpcStats = {
    requests: 0,
    calls: 0,
    dropped: { close: 0, "502": 0 },
    lagging: 0,
    hiddenReceipts: 0,
    refusedLogRanges: 0,
    upstreamDown: 0,
  };
  let calm = false;

  const post = async (body: string): Promise<string> => {
    const response = await rpcFetch(options.upstream(), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`the node answered HTTP ${response.status}`);
    return text;
  };

  const upstreamHead = async (): Promise<bigint> => {
    const answer = JSON.parse(
      await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] })),
    ) as { result?: string };
    const head = numberOf(answer.result);
    if (head === null) throw new Error("the node did not say its head");
    return head;
  };

  /** What the node `lag` blocks behind `head` does with `call`. */
  const plan = (call: Call, head: bigint, lag: number): Plan => {
    const own = head - BigInt(lag) < 0n ? 0n : head - BigInt(lag);
    const method = typeof call.method === "string" ? call.method : "";
    const params = Array.isArray(call.params) ? [...call.params] : [];
    const send = (rewritten: unknown[] = params) => ({ ...call, params: rewritten });
    const above = (n: bigint | null) => n !== null && n > own;
    if (method === "eth_blockNumber") return { answer: hex(own) };
    if (method === "eth_getBlockByNumber") {
      const tag = params[0];
      if (typeof tag === "string" && HEAD_TAGS.has(tag))
        return { send: send([hex(own), ...params.slice(1)]) };
      if (above(numberOf(tag))) return { answer: null };
      return { send: send() };
    }
    if (method === "eth_getBlockByHash")
      return { send: send(), seen: (block) => (above(blockOf(block)) ? null : block) };
    if (method === "eth_getTransactionReceipt")
      return {
        send: send(),
        seen: (receipt) => {
          if (!above(blockOf(receipt))) return receipt;
          stats.hiddenReceipts += 1;
          return null;
        },
      };
    if (method === "eth_getTransactionByHash")
      return {
        send: send(),
        seen: (tx) =>
          above(blockOf(tx))
            ? { ...(tx as object), blockHash: null, blockNumber: null, transactionIndex: null }
            : tx,
      };
    const at = STATE_TAG[method];
    if (at !== undefined) {
      const tag = params[at];
      if (above(numberOf(tag))) return { error: "header not found" };
      if (lag > 0 && (tag === undefined || (typeof tag === "string" && HEAD_TAGS.has(tag)))) {
        while (params.length < at) params.push(undefined);
        params[at] = hex(own);
        return { send: send(params) };
      }
      return { send: send() };
    }
    if (method === "eth_getLogs") {
      const filter = (params[0] ?? {}) as Record<string, unknown>;
      if (filter.blockHash !== undefined) return { send: send() };
      const resolve = (tag: unknown): bigint => {
        if (tag === undefined || (typeof tag === "string" && HEAD_TAGS.has(tag))) return own;
        if (tag === "earliest") return 0n;
        return numberOf(tag) ?? own;
      };
      const from = resolve(filter.fromBlock);
      const asked = resolve(filter.toBlock);
      const to = asked > own ? own : asked;
      if (from > to) return { answer: [] };
      if (to - from + 1n > maxLogRange) {
        stats.refusedLogRanges += 1;
        return { error: `exceed maximum block range: ${maxLogRange}` };
      }
      return {
        send: send([{ ...filter, fromBlock: hex(from), toBlock: hex(to) }, ...params.slice(1)]),
      };
    }
    return { send: send() };
  };

  /** Answers calls, each by its own node: the node behind gets the rest in one batch. */
  const answerAll = async (calls: Call[], lags: number[]): Promise<Answer[]> => {
    const head = await upstreamHead();
    const plans = calls.map((call, i) => plan(call, head, lags[i] as number));
    const sent = plans.flatMap((p, i) =>
      "send" in p ? [{ ...p.send, jsonrpc: "2.0", id: i }] : [],
    );
    const answers = new Map<
      unknown,
      { result?: unknown; error?: { code: number; message: string } }
    >();
    if (sent.length > 0) {
      const parsed = JSON.parse(await post(JSON.stringify(sent))) as unknown;
      for (const answer of Array.isArray(parsed) ? parsed : [parsed])
        answers.set((answer as { id: unknown }).id, answer as { result?: unknown });
    }
    return calls.map((call, i) => {
      const p = plans[i] as Plan;
      const id = call.id ?? null;
      if ("answer" in p) return { jsonrpc: "2.0", id, result: p.answer };
      if ("error" in p) return { jsonrpc: "2.0", id, error: { code: -32000, message: p.error } };
      const got = answers.get(i);
      if (!got) return { jsonrpc: "2.0", id, error: { code: -32603, message: "no answer" } };
      if (got.error) return { jsonrpc: "2.0", id, error: got.error };
      return { jsonrpc: "2.0", id, result: p.seen ? p.seen(got.result) : got.result };
    });
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    stats.requests += 1;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = undefined;
    }
    const calls = (Array.isArray(parsed) ? parsed : [parsed]) as Call[];
    stats.calls += calls.length;
    const reply = (status: number, text: string) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(text);
    };
    if (calm || parsed === undefined || calls.some((c) => typeof c !== "object" || c === null)) {
      try {
        return reply(200, await post(body));
      } catch {
        stats.upstreamDown += 1;
        response.writeHead(502);
        return response.end();
      }
    }
    // Drawn at arrival, in order: the same seed and order of requests draw the same faults.
    const drop = random() < dropRate ? (drops[Math.floor(random() * drops.length)] as Drop) : null;
    const delay = delayMs(random());
    const lags = calls.map((call) => {
      const drawn = Math.floor(random() * (maxLag + 1));
      return options.lagOf ? options.lagOf(String(call.method), drawn) : drawn;
    });
    stats.lagging += lags.filter((lag) => lag > 0).length;
    let text: string;
    try {
      const answers = await answerAll(calls, lags);
      text = JSON.stringify(Array.isArray(parsed) ? answers : answers[0]);
    } catch {
      stats.upstreamDown += 1;
      response.writeHead(502);
      return response.end();
    }
    if (drop === "close") {
      stats.dropped.close += 1;
      return void request.socket.destroy();
    }
    if (drop === "502") {
      stats.dropped["502"] += 1;
      response.writeHead(502);
      return response.end();
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    reply(200, text);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    /** Passes every request through unchanged until `unsettle()`. */
    calm: () => {
      calm = true;
    },
    unsettle: () => {
      calm = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export type UnreliableRpc = Awaited<ReturnType<typeof startUnreliableRpc>>;
