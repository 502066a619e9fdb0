import { rpcBatch } from "@bundler/chain";
import { type Address, getAddress, type Hex } from "viem";
import type { ChainCursors } from "./chain-cursors.ts";

/** Blocks read per scan at most; a longer gap is caught up over the next scans. */
export const MAX_SCAN_BLOCKS = 500n;

interface RpcTx {
  hash: Hex;
  from: Address;
  to: Address | null;
  value: Hex;
}
interface RpcBlock {
  number: Hex;
  timestamp: Hex;
  transactions: RpcTx[];
}

export interface IncomingTransfer {
  hash: Hex;
  from: Address;
  /** Lowercase, as given in `watched`. */
  to: string;
  value: bigint;
  blockNumber: bigint;
  blockTime: Date;
}

/**
 * The plain BNB transfers into `watched` (lowercase addresses) in blocks `from`..`head`, at
 * most MAX_SCAN_BLOCKS of them, read in ONE batched request. Answers the last block read
 * (the next scan starts after it), or `from - 1` when there was nothing to read.
 */
export const scanIncomingTransfers = async (
  rpcUrl: string,
  watched: ReadonlySet<string>,
  from: bigint,
  head: bigint,
): Promise<{ lastBlock: bigint; transfers: IncomingTransfer[] }> => {
  if (from > head) return { lastBlock: from - 1n, transfers: [] };
  const to = from + MAX_SCAN_BLOCKS - 1n < head ? from + MAX_SCAN_BLOCKS - 1n : head;
  const numbers: bigint[] = [];
  for (let n = from; n <= to; n++) numbers.push(n);
  const blocks = await rpcBatch<RpcBlock>(
    rpcUrl,
    numbers.map((n) => ({ method: "eth_getBlockByNumber", params: [`0x${n.toString(16)}`, true] })),
  );
  const transfers: IncomingTransfer[] = [];
  for (const { result: block } of blocks) {
    if (!block) throw new Error("a block could not be read; the scan resumes next tick");
    for (const tx of block.transactions) {
      const target = tx.to?.toLowerCase();
      const value = BigInt(tx.value);
      if (!target || !watched.has(target) || value === 0n) continue;
      transfers.push({
        hash: tx.hash,
        from: getAddress(tx.from),
        to: target,
        value,
        blockNumber: BigInt(block.number),
        blockTime: new Date(Number(BigInt(block.timestamp)) * 1000),
      });
    }
  }
  return { lastBlock: to, transfers };
};

/**
 * A block scanner with its cursor: the transfers into `targets` (each with its id) in the
 * blocks scanner `name` has not read yet, up to `head` (at most MAX_SCAN_BLOCKS at a time).
 * `record` is called for each before the cursor moves past them, so a crash in between reads
 * those blocks again (recording a deposit twice is a no-op). Answers the next block to read:
 * a caller waiting for "every block up to the head is read" compares it with the head.
 */
export const scanNewTransfers = async <
  T extends { id: string; address: string; scanFromBlock: bigint },
>(
  scanner: { cursors: ChainCursors; name: string; rpcUrl: string },
  targets: T[],
  head: bigint,
  record: (target: T, transfer: IncomingTransfer) => Promise<void>,
): Promise<bigint> => {
  const { cursors, name } = scanner;
  if (targets.length === 0) {
    await cursors.set(name, head + 1n);
    return head + 1n;
  }
  // Blocks before every target's first are of no interest: a cursor left behind (the pass did
  // not run while nothing was watched) starts there, not at the blocks in between.
  let earliest = head + 1n;
  for (const t of targets) if (t.scanFromBlock < earliest) earliest = t.scanFromBlock;
  const cursor = await cursors.get(name);
  const from = cursor === undefined || cursor < earliest ? earliest : cursor;
  if (from > head) return from;
  const byAddress = new Map(targets.map((t) => [t.address.toLowerCase(), t]));
  const scan = await scanIncomingTransfers(scanner.rpcUrl, new Set(byAddress.keys()), from, head);
  for (const transfer of scan.transfers) {
    const target = byAddress.get(transfer.to);
    if (target) await record(target, transfer);
  }
  await cursors.set(name, scan.lastBlock + 1n);
  return scan.lastBlock + 1n;
};
