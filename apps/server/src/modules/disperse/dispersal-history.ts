import type { DispersalLogLine, DispersalSummary } from "@bundler/shared";
import { desc, eq, sql } from "drizzle-orm";
import { formatEther } from "viem";
import type { Db } from "../../db/client.ts";
import { dispersalLegs, dispersals } from "../../db/schema.ts";
import type { TxSummary } from "../transactions/transactions.repository.ts";
import { legProgress } from "./dispersal-route.ts";
import { type TransferRow, toTransfer } from "./dispersal-transfers.ts";
import { bnb, describe, expiredLine, outcomeLine, receivedLine } from "./dispersal-words.ts";
import type { DepositRow, DispersalRow, ViewLeg } from "./disperse.repository.ts";

/** The disperser's history: a user's dispersals, newest first, with what each one sent. */
export class DispersalHistory {
  constructor(private readonly db: Db) {}

  async page(
    ownerId: string,
    { limit, offset }: { limit: number; offset: number },
  ): Promise<{ rows: DispersalSummary[]; total: number }> {
    const mine = eq(dispersals.ownerId, ownerId);
    const [rows, [count]] = await Promise.all([
      this.db
        .select({
          receiver: dispersals.receiver,
          status: dispersals.status,
          amount: dispersals.amount,
          antiBubblemaps: dispersals.antiBubblemaps,
          createdAt: dispersals.createdAt,
          walletCount: sql<number>`(select count(*)::int from ${dispersalLegs} l
            where l.dispersal_id = ${dispersals.id})`,
          total: sql<string>`(select coalesce(sum(l.amount), 0)::text from ${dispersalLegs} l
            where l.dispersal_id = ${dispersals.id})`,
        })
        .from(dispersals)
        .where(mine)
        .orderBy(desc(dispersals.createdAt), desc(dispersals.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ n: sql<number>`count(*)::int` }).from(dispersals).where(mine),
    ]);
    return {
      rows: rows.map((row) => ({
        dispersalId: row.receiver,
        status: row.status,
        total: formatEther(BigInt(row.total)),
        amount: formatEther(BigInt(row.amount)),
        walletCount: Number(row.walletCount),
        antiBubblemaps: row.antiBubblemaps,
        createdAt: row.createdAt.toISOString(),
      })),
      total: Number(count?.n ?? 0),
    };
  }
}

interface Entry {
  at: Date;
  /** The block it happened in; null: after every block (the outcome), or never mined. */
  block: bigint | null;
  message: string;
}

const byBlockThenTime = (a: Entry, b: Entry): number => {
  if (a.block !== b.block) {
    if (a.block === null) return 1;
    if (b.block === null) return -1;
    return a.block < b.block ? -1 : 1;
  }
  return a.at.getTime() - b.at.getTime();
};

/**
 * A dispersal's transaction log rebuilt from what it recorded, in the words of the live lines
 * (`dispersal-words.ts`): its funding, deposits held at the receiver, every finished transfer
 * (what each hop, delivery, return and refund announced), its expiry or its outcome. Oldest
 * first; a transfer's time is when it was signed, never earlier than the line before it.
 */
export function rebuildLog(
  d: DispersalRow,
  legs: ViewLeg[],
  transactions: TxSummary[],
  deposits: DepositRow[],
): DispersalLogLine[] {
  const entries: Entry[] = [];
  if (d.fundedAt)
    entries.push({
      at: d.fundedAt,
      block: d.fundedBlock,
      message: receivedLine(d, d.amount, d.funder),
    });
  for (const deposit of deposits)
    if (deposit.heldReason) {
      const owed = BigInt(deposit.refundable) > 0n ? deposit.refundable : deposit.value;
      entries.push({
        at: deposit.blockTime,
        block: deposit.blockNumber,
        message: `${bnb(owed)} from ${deposit.from} is held at ${d.receiver}: ${deposit.heldReason}`,
      });
    }
  const transfers: TransferRow[] = [];
  for (const tx of transactions) {
    const t = toTransfer(tx);
    if (!t) continue;
    transfers.push(t);
    if (t.status === "signed" || t.status === "sent") continue;
    entries.push({
      at: tx.createdAt,
      block: tx.blockNumber,
      message: describe(d, t, t.status === "confirmed"),
    });
  }
  entries.sort(byBlockThenTime);
  // How it ended comes last, whatever its time.
  const closedAt = d.closedAt ?? d.fundedAt ?? d.createdAt;
  if (d.status === "expired")
    entries.push({ at: closedAt, block: null, message: expiredLine(deposits.length > 0) });
  if (d.status === "completed" || d.status === "partial" || d.status === "failed") {
    const delivered = legs.filter(
      (leg) => legProgress(d.antiBubblemaps, leg.index, transfers).delivered,
    ).length;
    const returned = transfers
      .filter((t) => t.kind === "return" && t.status === "confirmed")
      .reduce((sum, t) => sum + BigInt(t.value), 0n);
    entries.push({
      at: closedAt,
      block: null,
      message: outcomeLine(d, d.status, delivered, legs.length, returned),
    });
  }
  let last = 0;
  return entries.map((entry) => {
    last = Math.max(last, entry.at.getTime());
    return { at: new Date(last).toISOString(), message: entry.message };
  });
}
