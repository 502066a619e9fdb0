import { rpcBatch } from "@bundler/chain";
import { type Address, getAddress, type Hex } from "viem";

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
