import {
  type Address,
  decodeErrorResult,
  type Hex,
  isHex,
  keccak256,
  parseTransaction,
} from "viem";
import { NotSignedError, recoverSenders } from "../actions/recoverSenders.ts";
import type { StartDevBuilderParameters } from "./devBuilder.ts";
import { type Node, RpcError } from "./devBuilderRpc.ts";

export interface BundleParams {
  txs: Hex[];
  maxBlockNumber?: number;
  minTimestamp?: number;
  maxTimestamp?: number;
  revertingTxHashes: Hex[];
}

const toNumber = (value: unknown, name: string): number | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value))
    return Number.parseInt(value, 16);
  throw new RpcError(-32602, `invalid ${name}: expected a block number or timestamp`);
};

export const parseBundleParams = (raw: unknown, maxTxs: number): BundleParams => {
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
export const checkBundle = async (
  params: StartDevBuilderParameters,
  bundle: BundleParams,
): Promise<BundleParams & { decoded: DecodedTx[] }> => {
  const senders = await recoverSenders(bundle.txs).catch((error: unknown) => {
    if (!(error instanceof NotSignedError)) throw error;
    throw new RpcError(-32602, `invalid txs[${error.index}]: not a signed transaction`);
  });
  const decoded = bundle.txs.map((raw, index) => {
    try {
      const tx = parseTransaction(raw);
      const from = senders[index] as Address;
      return { raw, hash: keccak256(raw), from, to: tx.to?.toLowerCase(), value: tx.value ?? 0n };
    } catch {
      throw new RpcError(-32602, `invalid txs[${index}]: not a signed transaction`);
    }
  });
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

/**
 * Mines the bundle alone in the next block (but for `front`, transactions a test puts in that
 * block too), or leaves no trace of it; runs under the lock.
 */
export const includeBundle = async (
  node: Node,
  bundle: BundleParams & { decoded: DecodedTx[] },
  front: readonly Hex[] = [],
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

  // Anvil mines only when told (the builder keeps the rhythm under the same lock), so no block
  // can cut the bundle in two. Ordinary transactions already waiting go into their own block.
  const pool = await node<{ pending: string }>("txpool_status");
  if (Number.parseInt(pool.pending, 16) > 0) await node("evm_mine");
  const snapshot = await node<Hex>("evm_snapshot");
  const before = Number.parseInt(await node<string>("eth_blockNumber"), 16);
  for (const raw of front) await node("eth_sendRawTransaction", [raw]);
  const failure = await tryBundle(node, decoded, bundle.revertingTxHashes);
  if (failure) {
    // A transaction sent straight to the node meanwhile may have been mined beside the
    // bundle: it is sent again after the revert, not lost with the bundle's block.
    const strays = await straysSince(node, before, decoded);
    await node("evm_revert", [snapshot]);
    for (const raw of strays) await node("eth_sendRawTransaction", [raw]).catch(() => undefined);
    for (const tx of decoded) await node("anvil_dropTransaction", [tx.hash]).catch(() => undefined);
    throw failure;
  }
  return bundleHash(decoded);
};

/** What a builder answers for a bundle it took: keccak256 of its transactions' hashes. */
export const bundleHash = (decoded: readonly DecodedTx[]): Hex =>
  keccak256(`0x${decoded.map((tx) => tx.hash.slice(2)).join("")}` as Hex);

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
