import { getAddressInfo } from "@bundler/chain";
import {
  type AddressInfo,
  MAX_ADDRESS_TXS,
  type Transaction,
  type TxStatusEntry,
} from "@bundler/shared";
import {
  type Address,
  formatEther,
  formatUnits,
  getAddress,
  type Hex,
  TransactionNotFoundError,
} from "viem";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { NotFoundError } from "../../lib/errors.ts";
import { saleOutcomes, txKnown, txStatuses } from "../../lib/shared-reads.ts";
import type { TxRow } from "../transactions/transactions.repository.ts";
import type { TxManager } from "../transactions/tx-manager.ts";

const UNKNOWN = "the node does not know this transaction: it was dropped or never sent";

/**
 * Blocks on top of a transaction's block before its outcome is kept for good: a receipt in the
 * head itself can still go (a local bundle refused after its block was mined, a reorg on BSC).
 */
export const FINAL_DEPTH = 2n;

const finalKey = (hash: string) => `tx-status:${hash.toLowerCase()}`;

/**
 * Keeps every mined or reverted answer whose block is FINAL_DEPTH below the head (a mined one
 * only once its sale, or that it is none, was read).
 */
const keepFinal = async (chain: ChainContext, entries: Iterable<TxStatusEntry>) => {
  const done = [...entries].filter(
    (e) =>
      ((e.status === "success" && e.sale !== undefined) || e.status === "failed") &&
      e.blockNumber !== null,
  );
  if (done.length === 0) return;
  const head = await chain.reads.head().catch(() => null);
  if (!head) return;
  for (const entry of done)
    if (BigInt(entry.blockNumber as string) + FINAL_DEPTH <= head.number)
      chain.reads.keepFinal(finalKey(entry.hash), entry);
};

/**
 * Where transactions stand: the transaction manager's record for the ones the server sent (a
 * final record is the answer; an open one is pending until the chain mines it, even while the
 * node does not hold it yet: the manager broadcasts it again or ends it with a reason), the
 * chain for the rest. Statuses in batches, one transaction in full.
 */
export class TxService {
  constructor(
    private readonly chain: ChainContext | undefined,
    private readonly txm?: TxManager,
  ) {}

  /**
   * At most one database read and three RPC round trips, whatever the number of hashes (the
   * third reads the receipts of the mined ones, for what a sale sold and fetched); none for a
   * hash whose outcome is final (mined or reverted, FINAL_DEPTH blocks below the head), which
   * is kept for good. Chain reads are shared per block with other callers (`chain.reads`).
   */
  async statuses(hashes: Hex[]): Promise<TxStatusEntry[]> {
    const chain = requireChain(this.chain);
    const kept = new Map<string, TxStatusEntry>();
    for (const hash of hashes) {
      const entry = chain.reads.final<TxStatusEntry>(finalKey(hash));
      if (entry) kept.set(hash.toLowerCase(), entry);
    }
    const asked = hashes.filter((hash) => !kept.has(hash.toLowerCase()));
    const answers = asked.length > 0 ? await this.read(chain, asked) : new Map();
    return hashes.map((hash) => {
      const entry = kept.get(hash.toLowerCase()) ?? answers.get(hash);
      return entry
        ? { ...entry, hash }
        : { hash, status: "error", blockNumber: null, reason: UNKNOWN };
    });
  }

  /** The records' and the chain's answers for `hashes`; final ones are kept in `chain.reads`. */
  private async read(chain: ChainContext, hashes: Hex[]): Promise<Map<string, TxStatusEntry>> {
    const records = new Map(
      (await (this.txm?.byHashes(hashes.map((h) => h.toLowerCase())) ?? [])).map((row) => [
        row.txHash.toLowerCase(),
        row,
      ]),
    );
    const recordOf = (hash: string) => records.get(hash.toLowerCase());
    const answers = new Map<string, TxStatusEntry>();
    for (const hash of hashes) {
      const record = recordOf(hash);
      if (record?.blockNumber != null) chain.reads.observe(record.blockNumber);
      const answer = record && fromRecord(hash, record);
      if (answer) answers.set(hash, answer);
    }
    const onChain = await this.chainStatuses(
      chain,
      hashes.filter((hash) => !answers.has(hash)),
      new Set(hashes.filter((hash) => recordOf(hash)).map((hash) => hash.toLowerCase())),
    );
    for (const [hash, entry] of onChain) answers.set(hash, entry);
    await withSales(chain, answers);
    await keepFinal(chain, answers.values());
    return answers;
  }

  /** What the chain says; `ours` are open records: pending while unmined, never "unknown". */
  private async chainStatuses(
    chain: ChainContext,
    hashes: Hex[],
    ours: Set<string>,
  ): Promise<Map<string, TxStatusEntry>> {
    if (hashes.length === 0) return new Map();
    const statuses = (await txStatuses(chain, hashes)).map((s, i) => ({
      ...s,
      hash: hashes[i] as Hex,
    }));
    const unmined = statuses
      .filter((s) => s.status === "pending" && !ours.has(s.hash.toLowerCase()))
      .map((s) => s.hash);
    const held = unmined.length > 0 ? await txKnown(chain, unmined) : [];
    const known = new Set(unmined.filter((_, i) => held[i]));
    return new Map(
      statuses.map((s): [string, TxStatusEntry] => {
        if (s.status === "pending")
          return [
            s.hash,
            known.has(s.hash) || ours.has(s.hash.toLowerCase())
              ? { hash: s.hash, status: "pending", blockNumber: null, reason: null }
              : { hash: s.hash, status: "error", blockNumber: null, reason: UNKNOWN },
          ];
        chain.reads.observe(s.blockNumber);
        return [
          s.hash,
          {
            hash: s.hash,
            status: s.status,
            blockNumber: s.blockNumber.toString(),
            reason: s.status === "failed" ? s.reason : null,
            sale:
              s.status === "success" && s.sale
                ? { tokens: s.sale.tokens.toString(), bnb: formatEther(s.sale.bnb) }
                : null,
          },
        ];
      }),
    );
  }

  /**
   * One address: what the chain says (one batched read) and, beside it (one database read),
   * the transactions the server sent from or to it for `ownerId` — only the caller's own: a
   * dispersal's hops must not show up on another user's page.
   */
  async address(address: Address, ownerId: string): Promise<AddressInfo> {
    const chain = requireChain(this.chain);
    const checksummed = getAddress(address);
    const [info, rows] = await Promise.all([
      getAddressInfo(chain.client, {
        address: checksummed,
        ...(chain.trade ? { helper: chain.trade.helper } : {}),
      }),
      this.txm?.involving(checksummed, ownerId, MAX_ADDRESS_TXS) ?? [],
    ]);
    return {
      address: checksummed,
      balance: formatEther(info.balance),
      nonce: info.nonce,
      isContract: info.isContract,
      token: info.token && {
        name: info.token.name,
        symbol: info.token.symbol,
        totalSupply: formatUnits(info.token.totalSupply, info.token.decimals),
        graduated: info.token.graduated,
      },
      transactions: rows.map((row) => ({
        hash: row.txHash,
        purpose: row.purpose,
        status: row.status,
        blockNumber: row.blockNumber === null ? null : row.blockNumber.toString(),
        from: row.from,
        to: row.to,
      })),
    };
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

/**
 * Adds to each mined answer what it sold and fetched (null: not a sale); a failed read leaves
 * it out (undefined), so the answer is not kept and the next poll reads it again.
 */
const withSales = async (chain: ChainContext, answers: Map<string, TxStatusEntry>) => {
  // A status read from the chain carries its sale already (one receipt read for both).
  const mined = [...answers.entries()].filter(
    ([, entry]) => entry.status === "success" && entry.sale === undefined,
  );
  for (const [hash, entry] of answers)
    if (entry.status !== "success") answers.set(hash, { ...entry, sale: null });
  if (mined.length === 0) return;
  const outcomes = await saleOutcomes(
    chain,
    mined.map(([hash]) => hash as Hex),
  ).catch(() => null);
  if (!outcomes) return;
  mined.forEach(([hash, entry], i) => {
    const outcome = outcomes[i];
    answers.set(hash, {
      ...entry,
      sale: outcome ? { tokens: outcome.tokens.toString(), bnb: formatEther(outcome.bnb) } : null,
    });
  });
};

/** A final record's status (the manager's word is the answer); null while it is open. */
const fromRecord = (hash: string, row: TxRow): TxStatusEntry | null => {
  const blockNumber = row.blockNumber === null ? null : row.blockNumber.toString();
  switch (row.status) {
    case "mined":
      return { hash, status: "success", blockNumber, reason: null };
    case "reverted":
      return { hash, status: "failed", blockNumber, reason: row.error ?? "execution reverted" };
    case "replaced":
    case "dropped":
      return { hash, status: "failed", blockNumber: null, reason: row.error ?? row.status };
    default:
      return null;
  }
};
