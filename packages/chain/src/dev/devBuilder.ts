import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Address,
  type Hex,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionSerialized,
} from "viem";
import { rpcFetch } from "../actions/rpcFetch.ts";
import { bundleHash, checkBundle, includeBundle, parseBundleParams } from "./devBuilderBundle.ts";
import { jsonRpc, RpcError, serve } from "./devBuilderRpc.ts";

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
  /**
   * Seconds between blocks (fractions allowed; 0 = none, blocks only on demand). The builder
   * mines them itself, under the same lock as bundles and raw transactions, and stops anvil's
   * own interval mining when it starts (`startAnvil` with `blockTime: null` has none).
   */
  blockTime: number;
  /**
   * Answer as a remote builder does, ms after a bundle arrives: its hash once it passes the
   * cheap checks, the block built after (when the node is free). A bundle that no longer
   * applies then (another builder's variant of it landed first) is dropped, never refused
   * late. Unset: the bundle is mined before it is answered, its failure answered in words.
   */
  latencyMs?: number;
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
  /**
   * Signed transactions sent to the node in the next bundle's block, before the bundle's own
   * (another account trading first; the node orders a block by gas price, so give them a
   * higher one than the bundle's). Used once.
   */
  frontrunNextBundle?: Hex[];
  /**
   * Take the next `n` bundles (answer their hash, as an accepted bundle is answered) and never
   * include them: a builder that accepted a bundle and did not land it in its window.
   */
  acceptWithoutLanding?: number;
  /** Refuse the next `times` bundles with `message`, as a builder refuses one it will not take. */
  refuseBundles?: { times: number; message: string };
  /** Never answer the next `n` bundles (and never include them): a builder gone silent. */
  silentBundles?: number;
  /** Refuse each bundle with probability `share` (0-1), in `message`'s words. */
  refuseShare?: { share: number; message: string };
}

/** How long a silent builder holds a request before it drops the connection. */
const SILENT_HOLD_MS = 60_000;

/**
 * One lock per node for every builder of this process in front of it (tests run several
 * against one anvil): a block one builder mines never cuts another's bundle in two.
 */
const nodeLocks = new Map<string, { queue: Promise<unknown> }>();
const nodeLock = (rpcUrl: string) => {
  let lock = nodeLocks.get(rpcUrl);
  if (!lock) {
    lock = { queue: Promise.resolve() };
    nodeLocks.set(rpcUrl, lock);
  }
  return lock;
};

/**
 * A local block builder in front of anvil that answers `eth_sendBundle` the way BSC
 * builders do, honestly: the bundle is simulated on a snapshot, and either every
 * transaction lands in one block in the given order, or nothing does and the reason
 * comes back. Every other method is passed through to anvil; raw transactions wait
 * for a running bundle, so nothing interleaves inside one. It also keeps the chain's rhythm:
 * a block every `blockTime` seconds, one at once on `dev_mine` (tests wait for the block they
 * need instead of for the clock), and a new rhythm on `dev_setBlockTime` (0 pauses it).
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
  const lock = nodeLock(params.rpcUrl);
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = lock.queue.then(work, work);
    lock.queue = run.catch(() => undefined);
    return run;
  };

  /** Mines one block (after any bundle or raw transaction in flight); answers its number. */
  const mine = () =>
    exclusive(async () => {
      await node("evm_mine");
      return Number.parseInt(await node<string>("eth_blockNumber"), 16);
    });
  // The builder keeps the rhythm: an anvil started with one of its own stops it here, or it
  // could mine a block in the middle of a bundle.
  await node("evm_setIntervalMining", [0]);
  await node("evm_setAutomine", [false]);
  let blockTime = params.blockTime;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const rhythm = () => {
    clearTimeout(timer);
    if (closed || blockTime <= 0) return;
    timer = setTimeout(() => {
      void mine()
        .catch(() => undefined)
        .finally(rhythm);
    }, blockTime * 1000);
  };
  rhythm();

  const handle = async (method: string, args: unknown[]): Promise<unknown> => {
    if (method === "dev_setFaults") {
      faults = (args[0] ?? {}) as DevBuilderFaults;
      return true;
    }
    if (method === "dev_mine") return mine();
    if (method === "dev_setBlockTime") {
      // Seconds between blocks from now on; 0 stops the rhythm (blocks only on dev_mine).
      const seconds = Number(args[0]);
      if (!Number.isFinite(seconds) || seconds < 0)
        throw new RpcError(-32602, "invalid block time: expected seconds, 0 or more");
      blockTime = seconds;
      rhythm();
      return true;
    }
    if (method === "dev_bundleCounts") return { ...counts };
    if (method === "eth_sendBundle") {
      counts.received += 1;
      return takeBundle(args).then(
        (hash) => {
          counts.accepted += 1;
          return hash;
        },
        (error: unknown) => {
          counts.refused += 1;
          throw error;
        },
      );
    }
    if (method === "eth_sendRawTransaction") {
      if (await refused(args[0]))
        throw new RpcError(-32000, "insufficient funds for gas * price + value");
      return exclusive(() => node(method, args));
    }
    return node(method, args);
  };

  /** Bundles this builder was sent, took (answered with a hash) and refused (`dev_bundleCounts`). */
  const counts = { received: 0, accepted: 0, refused: 0 };

  /** `eth_sendBundle`: the faults first, then the builder's own checks and its block. */
  const takeBundle = async (args: unknown[]): Promise<unknown> => {
    if (faults.silentBundles) {
      faults = { ...faults, silentBundles: faults.silentBundles - 1 };
      await new Promise((resolve) => setTimeout(resolve, SILENT_HOLD_MS).unref());
      throw new RpcError(-32000, "no answer");
    }
    const refusal = faults.refuseBundles;
    if (refusal && refusal.times > 0) {
      faults = { ...faults, refuseBundles: { ...refusal, times: refusal.times - 1 } };
      throw new RpcError(-32000, refusal.message);
    }
    if (faults.refuseShare && Math.random() < faults.refuseShare.share)
      throw new RpcError(-32000, faults.refuseShare.message);
    if (params.latencyMs) await new Promise((resolve) => setTimeout(resolve, params.latencyMs));
    const bundle = await checkBundle(params, parseBundleParams(args[0], params.maxTxs));
    if (faults.acceptWithoutLanding) {
      faults = { ...faults, acceptWithoutLanding: faults.acceptWithoutLanding - 1 };
      return bundleHash(bundle.decoded);
    }
    const front = faults.frontrunNextBundle ?? [];
    faults = { ...faults, frontrunNextBundle: [] };
    if (params.latencyMs !== undefined) {
      void exclusive(async () => {
        // Another builder's variant landed first (its transactions are the same but the tip):
        // dropped without building a block to find out, which would show a block that is then
        // taken back to every client polling the head.
        const first = bundle.decoded[0];
        if (first && (await node("eth_getTransactionReceipt", [first.hash]))) return;
        await includeBundle(node, bundle, front);
      }).catch(() => undefined);
      return bundleHash(bundle.decoded);
    }
    const hash = await exclusive(() => includeBundle(node, bundle, front));
    if (faults.bundleAnswerDelayMs)
      await new Promise((resolve) => setTimeout(resolve, faults.bundleAnswerDelayMs));
    return hash;
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
      methods.some((m) => typeof m === "string" && m.startsWith("dev_")) ||
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

  // A request that fails on its way (its client hung up mid-body, anvil went away mid-answer)
  // is answered 502 if it still can be and closed otherwise: never left to reject unheard,
  // which ended the whole process with an uncaught ECONNRESET.
  const server: Server = createServer((request, response) => {
    serve(request, response, handle, forward, failing).catch((error: Error) => {
      if (response.headersSent || response.destroyed) return void response.destroy();
      response.writeHead(502, { "content-type": "text/plain" });
      response.end(`the dev builder could not answer: ${error.message}`);
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(params.port ?? 0, params.host ?? "127.0.0.1", resolve),
  );
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    close: async () => {
      closed = true;
      clearTimeout(timer);
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      // A request held by a silent builder would keep the server open for a minute.
      server.closeAllConnections();
      await closing;
      // A block being mined when the builder closed ends before anvil is stopped.
      await exclusive(async () => undefined);
    },
  };
};
