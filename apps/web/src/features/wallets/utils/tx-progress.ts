import {
  type emptyWalletsRoute,
  plural,
  type SellRoute,
  type SellTransaction,
  type TxStatusEntry,
} from "@bundler/shared";
import type { RouteResponse } from "../../../lib/api-client.ts";
import { toWei } from "../../../lib/bnb.ts";

export type ProgressStatus = TxStatusEntry["status"];

/** One line of the transaction-progress dialog. */
export interface ProgressRow {
  /** Stable across polls: the hash, or the wallet and kind when nothing was sent. */
  id: string;
  hash: string | null;
  from: string;
  /** Tokens sold (display text, "0" for an approval), or BNB sent by an empty (decimal). */
  amount: string;
  /** A sell's approval or sale, or an empty's transfer of the wallet's BNB. */
  kind: SellTransaction["kind"] | "transfer";
  status: ProgressStatus;
  /** Why it failed: the server's reason for not sending, or the decoded revert. */
  reason: string | null;
  /** A sell's way out: a private bundle or the public pool; null for an empty's transfer. */
  route: SellRoute | null;
  /** A sale's floor, BNB (decimal): it reverts rather than fetch less; null otherwise. */
  minOut: string | null;
  /** The block it landed in, once mined (or reverted). */
  blockNumber: string | null;
  /** A landed sale's tokens (smallest units) and the BNB it fetched; null until then. */
  sale: { tokens: string; bnb: string } | null;
}

/** A sell's answer as dialog rows: sent ones start pending, refused ones are failed already. */
export function rowsFromSell(transactions: readonly SellTransaction[]): ProgressRow[] {
  const seen = new Set<string>();
  const rows: ProgressRow[] = [];
  for (const tx of transactions) {
    const id = tx.hash?.toLowerCase() ?? `${tx.from.toLowerCase()}:${tx.kind}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const unsent = tx.status === "pending" && !tx.hash;
    rows.push({
      id,
      hash: tx.hash,
      from: tx.from,
      amount: tx.amount,
      kind: tx.kind,
      status: unsent ? "error" : tx.status,
      reason: unsent ? (tx.error ?? "No transaction was sent") : tx.error,
      route: tx.route,
      minOut: tx.kind === "sell" ? tx.minOut : null,
      blockNumber: null,
      sale: null,
    });
  }
  return rows;
}

export type EmptyResult = RouteResponse<typeof emptyWalletsRoute>["results"][number];

/**
 * An empty's answer as dialog rows: a mined transfer is a success; one sent but not mined yet
 * is pending (polled like a sell's); a wallet for which nothing was sent failed, with why.
 */
export function rowsFromEmpty(results: readonly EmptyResult[]): ProgressRow[] {
  return results.map((result) => ({
    id: result.hash?.toLowerCase() ?? `${result.wallet.toLowerCase()}:transfer`,
    hash: result.hash,
    from: result.wallet,
    amount: result.amount,
    kind: "transfer",
    status: result.success ? "success" : result.hash ? "pending" : "failed",
    reason: result.success ? null : (result.error ?? "No transaction was sent"),
    route: null,
    minOut: null,
    blockNumber: null,
    sale: null,
  }));
}

/** The hashes still worth asking about: pending rows only. */
export const pendingHashes = (rows: readonly ProgressRow[]): string[] =>
  rows.flatMap((row) => (row.status === "pending" && row.hash ? [row.hash] : []));

/** Every transaction reached success, failed or error. */
export const allFinished = (rows: readonly ProgressRow[]): boolean =>
  rows.every((row) => row.status !== "pending");

/**
 * Rows with the statuses a poll reported; rows no longer pending are never changed again.
 * Returns the same array when nothing moved.
 */
export function applyStatuses(
  rows: readonly ProgressRow[],
  statuses: readonly (Pick<TxStatusEntry, "hash" | "status" | "reason"> &
    Partial<Pick<TxStatusEntry, "blockNumber" | "sale">>)[],
): readonly ProgressRow[] {
  const byHash = new Map(statuses.map((entry) => [entry.hash.toLowerCase(), entry]));
  let changed = false;
  const next = rows.map((row) => {
    const entry = row.hash ? byHash.get(row.hash.toLowerCase()) : undefined;
    if (row.status !== "pending" || !entry || entry.status === "pending") return row;
    changed = true;
    return {
      ...row,
      status: entry.status,
      reason: entry.reason ?? row.reason,
      blockNumber: entry.blockNumber ?? null,
      sale: entry.sale ?? null,
    };
  });
  return changed ? next : rows;
}

/** A count line for the dialog: "2 of 3 finished". */
export const progressSummary = (rows: readonly ProgressRow[]): string =>
  `${rows.filter((row) => row.status !== "pending").length} of ${rows.length} finished`;

/**
 * How the sells went out, when that is worth saying: "in 3 bundles, one block each" once they
 * were split over more than one bundle; null for one bundle (or none: public).
 */
export const bundlesSummary = (bundles: number): string | null =>
  bundles > 1 ? `Sent privately in ${plural(bundles, "bundle")}, for consecutive blocks.` : null;

/** "120", "120 and 121", "120, 121 and 122". */
const listed = (items: readonly string[]): string =>
  items.length <= 1
    ? (items[0] ?? "")
    : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;

/** The blocks the rows landed in (mined or reverted), lowest first. */
export const landedBlocks = (rows: readonly ProgressRow[]): string[] =>
  [...new Set(rows.flatMap((row) => (row.blockNumber ? [row.blockNumber] : [])))].sort((a, b) =>
    BigInt(a) < BigInt(b) ? -1 : 1,
  );

/** What the landed sales sold (token units) and fetched (wei) in all. */
export function salesTotal(rows: readonly ProgressRow[]): { tokens: bigint; bnb: bigint } {
  let tokens = 0n;
  let bnb = 0n;
  for (const row of rows) {
    if (!row.sale) continue;
    tokens += BigInt(row.sale.tokens);
    bnb += toWei(row.sale.bnb) ?? 0n;
  }
  return { tokens, bnb };
}

/** "block 120" or "blocks 120 and 121"; null while nothing landed. */
export const blocksWords = (rows: readonly ProgressRow[]): string | null => {
  const blocks = landedBlocks(rows);
  if (blocks.length === 0) return null;
  return `${blocks.length === 1 ? "block" : "blocks"} ${listed(blocks)}`;
};
