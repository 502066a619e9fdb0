import { and, asc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { chainSends, drafts, paymentDeposits, payments } from "../../db/schema.ts";
import type { PaymentRow, SendRow } from "./drafts.repository.ts";

export type DepositRow = typeof paymentDeposits.$inferSelect;

/** How long a closed payment address is still watched for late transfers. */
export const LATE_WATCH_MS = 7 * 24 * 3600 * 1000;

export class PaymentRepository {
  constructor(readonly db: Db) {}

  async insert(values: typeof payments.$inferInsert): Promise<PaymentRow> {
    const [row] = await this.db.insert(payments).values(values).returning();
    if (!row) throw new Error("payment insert returned nothing");
    return row;
  }

  async byId(id: string): Promise<PaymentRow | undefined> {
    const [row] = await this.db.select().from(payments).where(eq(payments.id, id)).limit(1);
    return row;
  }

  /** Open payments, and closed ones recent enough that money may still arrive or be unsettled. */
  async watched(): Promise<PaymentRow[]> {
    return this.db
      .select()
      .from(payments)
      .where(
        or(
          eq(payments.status, "open"),
          and(eq(payments.status, "paid"), isNull(payments.sweptAt)),
          gt(payments.createdAt, new Date(Date.now() - LATE_WATCH_MS)),
        ),
      );
  }

  /**
   * The single conditional transition that credits a payment: exactly one caller gets `true`,
   * however many watchers or restarts race on it.
   */
  async markPaid(payment: PaymentRow): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [won] = await tx
        .update(payments)
        .set({ status: "paid", paidAt: sql`now()` })
        .where(and(eq(payments.id, payment.id), eq(payments.status, "open")))
        .returning({ id: payments.id });
      if (!won) return false;
      await tx
        .update(drafts)
        .set({ status: "paid", updatedAt: sql`now()` })
        .where(
          and(
            eq(drafts.id, payment.draftId),
            eq(drafts.paymentId, payment.id),
            eq(drafts.status, "pending_payment"),
          ),
        );
      return true;
    });
  }

  /** open → cancelled/expired, and the draft back to draft; false when it was no longer open. */
  async close(paymentId: string, status: "cancelled" | "expired"): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(payments)
        .set({ status, closedAt: sql`now()` })
        .where(and(eq(payments.id, paymentId), eq(payments.status, "open")))
        .returning();
      if (!row) return false;
      await tx
        .update(drafts)
        .set({ status: "draft", updatedAt: sql`now()` })
        .where(
          and(
            eq(drafts.id, row.draftId),
            eq(drafts.paymentId, row.id),
            eq(drafts.status, "pending_payment"),
          ),
        );
      return true;
    });
  }

  async setBalances(entries: Array<{ id: string; balance: bigint }>, scanFrom?: bigint) {
    for (const { id, balance } of entries) {
      await this.db
        .update(payments)
        .set({
          lastBalance: balance.toString(),
          ...(scanFrom !== undefined ? { scanFromBlock: scanFrom } : {}),
        })
        .where(eq(payments.id, id));
    }
  }

  async setScanFrom(ids: string[], block: bigint): Promise<void> {
    if (ids.length === 0) return;
    await this.db.update(payments).set({ scanFromBlock: block }).where(inArray(payments.id, ids));
  }

  async deposits(paymentId: string): Promise<DepositRow[]> {
    return this.db
      .select()
      .from(paymentDeposits)
      .where(eq(paymentDeposits.paymentId, paymentId))
      .orderBy(asc(paymentDeposits.blockNumber));
  }

  async depositsOf(paymentIds: string[]): Promise<DepositRow[]> {
    if (paymentIds.length === 0) return [];
    return this.db
      .select()
      .from(paymentDeposits)
      .where(inArray(paymentDeposits.paymentId, paymentIds))
      .orderBy(asc(paymentDeposits.blockNumber));
  }

  async insertDeposit(values: typeof paymentDeposits.$inferInsert): Promise<boolean> {
    const rows = await this.db
      .insert(paymentDeposits)
      .values(values)
      .onConflictDoNothing()
      .returning({ txHash: paymentDeposits.txHash });
    return rows.length > 0;
  }

  async insertSend(values: typeof chainSends.$inferInsert): Promise<SendRow> {
    const [row] = await this.db.insert(chainSends).values(values).returning();
    if (!row) throw new Error("send insert returned nothing");
    return row;
  }

  async setSend(id: string, values: Partial<typeof chainSends.$inferInsert>): Promise<void> {
    await this.db
      .update(chainSends)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(chainSends.id, id));
  }

  async unfinishedSends(): Promise<SendRow[]> {
    return this.db
      .select()
      .from(chainSends)
      .where(inArray(chainSends.status, ["signed", "sent"]))
      .orderBy(asc(chainSends.nonce));
  }

  /** Claims a deposit's refund for one send; false when another already claimed it. */
  async claimRefund(txHash: string, sendId: string): Promise<boolean> {
    const rows = await this.db
      .update(paymentDeposits)
      .set({ refundSendId: sendId })
      .where(and(eq(paymentDeposits.txHash, txHash), isNull(paymentDeposits.refundSendId)))
      .returning({ txHash: paymentDeposits.txHash });
    return rows.length > 0;
  }

  async releaseRefund(sendId: string): Promise<void> {
    await this.db
      .update(paymentDeposits)
      .set({ refundSendId: null })
      .where(eq(paymentDeposits.refundSendId, sendId));
  }

  async claimSweep(paymentId: string): Promise<boolean> {
    const rows = await this.db
      .update(payments)
      .set({ sweptAt: sql`now()` })
      .where(and(eq(payments.id, paymentId), isNull(payments.sweptAt)))
      .returning({ id: payments.id });
    return rows.length > 0;
  }

  async releaseSweep(paymentId: string): Promise<void> {
    await this.db.update(payments).set({ sweptAt: null }).where(eq(payments.id, paymentId));
  }
}
