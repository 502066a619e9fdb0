import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Address,
  decodeErrorResult,
  type Hex,
  isHex,
  keccak256,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionSerialized,
} from "viem";
import { rpcFetch } from "../actions/rpcFetch.ts";

export interface StartDevBuilderParameters {
  /** The anvil node the builder mines on. */
  rpcUrl: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  tipAddress: Address;
  /** The smallest total tip (wei) a bundle must pay to `tipAddress`. */
  minTip: bigint;
  /** Largest number of transactions in one bundle. */
  maxTxs: number;
  /** Interval mining to restore after each bundle (seconds; 0 = none). */
  blockTime: number;
}

export interface StartDevBuilderReturnType {
  url: string;
  close(): Promise<void>;
}

/**
 * Faults a test sets with the `dev_setFaults` JSON-RPC method (the local profile's builder only),
 * to force the timings that real builders and nodes produce now and then.
 */
export interface DevBuilderFaults {
  /** Answer `eth_sendBundle` this long after the bundle was mined (the client may give up first). */
  bundleAnswerDelayMs?: number;
  /** Refuse `eth_sendRawTransaction` from these senders, as a node refuses one it will never take. */
  refuseRawFrom?: Address[];
  /** Refuse `eth_sendRawTransaction` to these recipients (the same refusal, by where it goes). */
  refuseRawTo?: Address[];
  /** Answer HTTP 503 to the next `times` requests that call `method`. */
  failMethod?: { method: string; times: number };
}

interface BundleParams {
  txs: Hex[];
  maxBlockNumber?: number;
  minTimestamp?: number;
  maxTimestamp?: number;
  revertingTxHashes: Hex[];
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * A local block builder in front of anvil that answers `eth_sendBundle` the way BSC
 * builders do, honestly: the bundle is simulated on a snapshot, and either every
 * transaction lands in one block in the given order, or nothing does and the reason
 * comes back. Every other method is passed through to anvil; raw transactions wait
 * for a running bundle, so nothing interleaves inside one.
 *
 * @example
 * const builder = await startDevBuilder({ rpcUrl, tipAddress, minTip: parseEther("0.0005"), maxTxs: 50, blockTime: 1 });
 */
export const startDevBuilder = async (
  params: StartDevBuilderParameters,
): Promise<StartDevBuilderReturnType> => {
  const node = jsonRpc(params.rpcUrl);
  let faults: DevBuilderFaults = {};
  const refusing = () => Boolean(faults.refuseRawFrom?.length || faults.refuseRawTo?.length);
  const refused = async (raw: unknown): Promise<boolean> => {
    if (!refusing() || typeof raw !== "string") return false;
    const listed = (list: Address[] | undefined, address: string | null | undefined) =>
      Boolean(address && list?.some((a) => a.toLowerCase() === address.toLowerCase()));
    const from = await recoverTransactionAddress({
      serializedTransaction: raw as TransactionSerialized,
    }).catch(() => null);
    const to = (() => {
      try {
        return parseTransaction(raw as Hex).to ?? null;
      } catch {
        return null;
      }
    })();
    return listed(faults.refuseRawFrom, from) || listed(faults.refuseRawTo, to);
  };
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  const handle = async (method: string, args: unknown[]): Promise<unknown> => {
    if (method === "dev_setFaults") {
      faults = (args[0] ?? {}) as DevBuilderFaults;
      return true;
    }
    if (method === "eth_sendBundle") {
      const bundle = await checkBundle(params, parseBundleParams(args[0], params.maxTxs));
      const hash = await exclusive(() => includeBundle(node, params, bundle));
      if (faults.bundleAnswerDelayMs)
        await new Promise((resolve) => setTimeout(resolve, faults.bundleAnswerDelayMs));
      return hash;
    }
    if (method === "eth_sendRawTransaction") {
      if (await refused(args[0]))
        throw new RpcError(-32000, "insufficient funds for gas * price + value");
      return exclusive(() => node(method, args));
    }
    return node(method, args);
  };

  /** Whether this request must fail with HTTP 503 (the `failMethod` fault), counting it. */
  const failing = (methods: unknown[]): boolean => {
    const fault = faults.failMethod;
    if (!fault || fault.times <= 0 || !methods.includes(fault.method)) return false;
    fault.times -= 1;
    return true;
  };

  /**
   * A request without bundles or dev methods goes to anvil as it came (one call or a batch,
   * raw transactions under the lock), and anvil's answer comes back as it is: a block of a
   * thousand transactions is not parsed and written again on its way through.
   */
  const forward = (calls: unknown[], body: Buffer): Promise<string> | undefined => {
    const methods = calls.map((m) => (m as { method?: unknown } | null)?.method);
    if (
      methods.includes("eth_sendBundle") ||
      methods.includes("dev_setFaults") ||
      methods.some((m) => typeof m !== "string") ||
      (refusing() && methods.includes("eth_sendRawTransaction"))
    )
      return undefined;
    const send = async () => {
      const response = await rpcFetch(params.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: new Uint8Array(body),
      });
      return response.text();
    };
    return methods.includes("eth_sendRawTransaction") ? exclusive(send) : send();
  };

  const server: Server = createServer(
    (request, response) => void serve(request, response, handle, forward, failing),
  );
  await new Promise<void>((resolve) =>
    server.listen(params.port ?? 0, params.host ?? "127.0.0.1", resolve),
  );
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};

const serve = async (
  request: IncomingMessage,
  response: ServerResponse,
  handle: (method: string, args: unknown[]) => Promise<unknown>,
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
const answer = async (
  raw: unknown,
  handle: (method: string, args: unknown[]) => Promise<unknown>,
): Promise<object> => {
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

const jsonRpc = (url: string) => {
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

const toNumber = (value: unknown, name: string): number | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value))
    return Number.parseInt(value, 16);
  throw new RpcError(-32602, `invalid ${name}: expected a block number or timestamp`);
};

const parseBundleParams = (raw: unknown, maxTxs: number): BundleParams => {
  if (typeof raw !== "object" || raw === null)
    throw new RpcError(-32602, "invalid params: expected a bundle object");
  const input = raw as Record<string, unknown>;
  const { txs } = input;
  if (!Array.isArray(txs) || txs.length === 0)
    throw new RpcError(-32602, "invalid txs: expected a non-empty array");
  if (txs.length > maxTxs) {
    throw new RpcError(
      -32602,
      `bundle too large: ${txs.length} transactions, this builder takes at most ${maxTxs}`,
    );
  }
  for (const [index, tx] of txs.entries()) {
    if (typeof tx !== "string" || !isHex(tx) || tx.length < 4) {
      throw new RpcError(
        -32602,
        `invalid txs[${index}]: expected a signed raw transaction (0x hex)`,
      );
    }
  }
  const reverting = input.revertingTxHashes ?? [];
  if (
    !Array.isArray(reverting) ||
    reverting.some((hash) => typeof hash !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(hash))
  ) {
    throw new RpcError(
      -32602,
      "invalid revertingTxHashes: expected an array of transaction hashes",
    );
  }
  return {
    txs: txs as Hex[],
    maxBlockNumber: toNumber(input.maxBlockNumber, "maxBlockNumber"),
    minTimestamp: toNumber(input.minTimestamp, "minTimestamp"),
    maxTimestamp: toNumber(input.maxTimestamp, "maxTimestamp"),
    revertingTxHashes: (reverting as Hex[]).map((hash) => hash.toLowerCase() as Hex),
  };
};

type Node = ReturnType<typeof jsonRpc>;

interface DecodedTx {
  raw: Hex;
  hash: Hex;
  from: Address;
  to: string | undefined;
  value: bigint;
}

/**
 * Decodes the bundle, checks its tip and waits for its minTimestamp, outside the lock: a
 * bundle waiting for its time holds up no one else's transactions.
 */
const checkBundle = async (
  params: StartDevBuilderParameters,
  bundle: BundleParams,
): Promise<BundleParams & { decoded: DecodedTx[] }> => {
  const decoded = await Promise.all(
    bundle.txs.map(async (raw, index) => {
      try {
        const tx = parseTransaction(raw);
        const from = await recoverTransactionAddress({
          serializedTransaction: raw as TransactionSerialized,
        });
        return { raw, hash: keccak256(raw), from, to: tx.to?.toLowerCase(), value: tx.value ?? 0n };
      } catch {
        throw new RpcError(-32602, `invalid txs[${index}]: not a signed transaction`);
      }
    }),
  );
  if (new Set(decoded.map((tx) => tx.hash)).size !== decoded.length) {
    throw new RpcError(-32602, "invalid txs: the same transaction appears twice");
  }
  const tip = decoded
    .filter((tx) => tx.to === params.tipAddress.toLowerCase())
    .reduce((sum, tx) => sum + tx.value, 0n);
  if (tip < params.minTip) {
    throw new RpcError(
      -32000,
      `bundle tip too low: ${tip} wei paid to ${params.tipAddress}, at least ${params.minTip} wei required`,
    );
  }

  const now = Math.floor(Date.now() / 1000);
  if (bundle.minTimestamp !== undefined && bundle.minTimestamp > now) {
    const waitMs = (bundle.minTimestamp - now) * 1000;
    if (waitMs > 60_000)
      throw new RpcError(-32000, `minTimestamp ${bundle.minTimestamp} is more than a minute away`);
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
  return { ...bundle, decoded };
};

/** Mines the bundle alone in the next block, or leaves no trace; runs under the lock. */
const includeBundle = async (
  node: Node,
  params: StartDevBuilderParameters,
  bundle: BundleParams & { decoded: DecodedTx[] },
): Promise<Hex> => {
  const { decoded } = bundle;
  const head = Number.parseInt(await node<string>("eth_blockNumber"), 16);
  if (bundle.maxBlockNumber !== undefined && head + 1 > bundle.maxBlockNumber) {
    throw new RpcError(
      -32000,
      `bundle expired: next block ${head + 1} is past maxBlockNumber ${bundle.maxBlockNumber}`,
    );
  }
  const now = Math.floor(Date.now() / 1000);
  if (bundle.maxTimestamp !== undefined && now > bundle.maxTimestamp) {
    throw new RpcError(
      -32000,
      `bundle expired: time ${now} is past maxTimestamp ${bundle.maxTimestamp}`,
    );
  }

  await node("evm_setIntervalMining", [0]);
  await node("evm_setAutomine", [false]);
  try {
    // Ordinary transactions already waiting go into their own block first.
    const pool = await node<{ pending: string }>("txpool_status");
    if (Number.parseInt(pool.pending, 16) > 0) await node("evm_mine");
    const snapshot = await node<Hex>("evm_snapshot");
    const before = Number.parseInt(await node<string>("eth_blockNumber"), 16);
    const failure = await tryBundle(node, decoded, bundle.revertingTxHashes);
    if (failure) {
      // A transaction sent straight to the node meanwhile may have been mined beside the
      // bundle: it is sent again after the revert, not lost with the bundle's block.
      const strays = await straysSince(node, before, decoded);
      await node("evm_revert", [snapshot]);
      for (const raw of strays) await node("eth_sendRawTransaction", [raw]).catch(() => undefined);
      for (const tx of decoded)
        await node("anvil_dropTransaction", [tx.hash]).catch(() => undefined);
      throw failure;
    }
    return keccak256(`0x${decoded.map((tx) => tx.hash.slice(2)).join("")}` as Hex);
  } finally {
    await node("evm_setIntervalMining", [params.blockTime]);
  }
};

/** The raw transactions mined after block `since` that are not the bundle's. */
const straysSince = async (node: Node, since: number, bundle: DecodedTx[]): Promise<Hex[]> => {
  const ours = new Set(bundle.map((tx) => tx.hash.toLowerCase()));
  const head = Number.parseInt(await node<string>("eth_blockNumber"), 16);
  const strays: Hex[] = [];
  for (let n = since + 1; n <= head; n++) {
    const block = await node<{ transactions: Hex[] }>("eth_getBlockByNumber", [
      `0x${n.toString(16)}`,
      false,
    ]);
    for (const hash of block.transactions)
      if (!ours.has(hash.toLowerCase()))
        strays.push(await node<Hex>("eth_getRawTransactionByHash", [hash]));
  }
  return strays;
};

/** Sends and mines the bundle; answers the reason it must not stand, or null. */
const tryBundle = async (
  node: Node,
  txs: Array<{ raw: Hex; hash: Hex }>,
  revertingTxHashes: Hex[],
): Promise<RpcError | null> => {
  for (const [index, tx] of txs.entries()) {
    try {
      await node("eth_sendRawTransaction", [tx.raw]);
    } catch (error) {
      return new RpcError(
        -32000,
        `transaction ${index} (${tx.hash}) was refused: ${(error as Error).message}`,
        {
          index,
          hash: tx.hash,
        },
      );
    }
  }
  await node("evm_mine");
  const block = await node<{ number: Hex; transactions: Hex[] }>("eth_getBlockByNumber", [
    "latest",
    false,
  ]);
  // A transaction sent straight to the node (not through this builder) may share the block:
  // the bundle stands when all of its transactions are in it, in its order.
  const expected = txs.map((tx) => tx.hash.toLowerCase());
  const ours = new Set(expected);
  const included = block.transactions.map((hash) => hash.toLowerCase()).filter((h) => ours.has(h));
  if (included.join() !== expected.join()) {
    return new RpcError(
      -32000,
      `bundle does not fit in one block: ${included.length} of ${txs.length} transactions fit`,
    );
  }
  for (const [index, tx] of txs.entries()) {
    const receipt = await node<{ status: Hex }>("eth_getTransactionReceipt", [tx.hash]);
    if (receipt.status === "0x1" || revertingTxHashes.includes(tx.hash.toLowerCase() as Hex))
      continue;
    const reason = await revertReason(node, tx.hash);
    return new RpcError(-32000, `transaction ${index} (${tx.hash}) would revert: ${reason}`, {
      index,
      hash: tx.hash,
      reason,
    });
  }
  return null;
};

const revertReason = async (node: Node, hash: Hex): Promise<string> => {
  try {
    const trace = await node<{ error?: string; revertReason?: string; output?: Hex }>(
      "debug_traceTransaction",
      [hash, { tracer: "callTracer" }],
    );
    if (trace.revertReason) return trace.revertReason;
    if (trace.output && trace.output.length > 2) {
      try {
        const decoded = decodeErrorResult({ data: trace.output });
        return String(decoded.args?.[0] ?? decoded.errorName);
      } catch {
        return trace.output;
      }
    }
    return trace.error ?? "execution reverted";
  } catch {
    return "execution reverted";
  }
};
