import { getTxStatuses, rpcBatch } from "@bundler/chain";
import type { Transaction, TxStatusEntry } from "@bundler/shared";
import { formatEther, getAddress, type Hex, TransactionNotFoundError } from "viem";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { NotFoundError } from "../../lib/errors.ts";

const UNKNOWN = "the node does not know this transaction: it was dropped or never sent";

/** Where transactions stand, read from the chain: statuses in batches, one transaction in full. */
export class TxService {
  constructor(private readonly chain: ChainContext | undefined) {}

  /** Two RPC round trips whatever the number of hashes: receipts (with reasons), then presence. */
  async statuses(hashes: Hex[]): Promise<TxStatusEntry[]> {
    const chain = requireChain(this.chain);
    const statuses = await getTxStatuses(chain.rpcUrl, { hashes });
    const unmined = statuses.filter((s) => s.status === "pending").map((s) => s.hash);
    const known = new Set<string>();
    if (unmined.length > 0) {
      const found = await rpcBatch<{ hash: Hex } | null>(
        chain.rpcUrl,
        unmined.map((hash) => ({ method: "eth_getTransactionByHash", params: [hash] })),
      );
      for (const [i, answer] of found.entries()) if (answer.result) known.add(unmined[i] as Hex);
    }
    return statuses.map((s) => {
      if (s.status === "pending")
        return known.has(s.hash)
          ? { hash: s.hash, status: "pending", blockNumber: null, reason: null }
          : { hash: s.hash, status: "error", blockNumber: null, reason: UNKNOWN };
      return {
        hash: s.hash,
        status: s.status,
        blockNumber: s.blockNumber.toString(),
        reason: s.status === "failed" ? s.reason : null,
      };
    });
  }

  async transaction(hash: Hex): Promise<Transaction> {
    const chain = requireChain(this.chain);
    const tx = await chain.client.getTransaction({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionNotFoundError)
        throw new NotFoundError("Transaction not found on this chain");
      throw error;
    });
    const [status] = await this.statuses([hash]);
    const base = {
      hash,
      from: getAddress(tx.from),
      to: tx.to ? getAddress(tx.to) : null,
      value: formatEther(tx.value),
      nonce: tx.nonce,
      reason: status?.reason ?? null,
    };
    if (!status || status.status === "pending" || status.status === "error")
      return { ...base, status: "pending", blockNumber: null, timestamp: null, fee: null };
    const receipt = await chain.client.getTransactionReceipt({ hash });
    const block = await chain.client.getBlock({ blockNumber: receipt.blockNumber });
    return {
      ...base,
      status: status.status,
      blockNumber: receipt.blockNumber.toString(),
      timestamp: new Date(Number(block.timestamp) * 1000).toISOString(),
      fee: formatEther(receipt.gasUsed * receipt.effectiveGasPrice),
    };
  }
}
