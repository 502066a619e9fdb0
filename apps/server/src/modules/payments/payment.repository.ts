import { and, asc, eq, gt, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { drafts, paymentDeposits, payments } from "../../db/schema.ts";
import type { Credit } from "../../lib/deposit-credit.ts";
import type { DraftRow, PaymentRow } from "../drafts/drafts.repository.ts";

export type DepositRow = typeof paymentDeposits.$inferSelect;

/** Work that must commit with a payment's credit, inside its transaction. */
export type PaymentCredited = (tx: Tx, payment: PaymentRow) => Promise<void>;

/** How long a closed payment address is still scanned for late transfers. */
export const LATE_WATCH_MS = 7 * 24 * 3600 * 1000;

/** Still watched: open, holding money not yet settled, or closed less than a week ago. */
const isWatched = () =>
  or(
    eq(payments.status, "open"),
    isNull(payments.settledAt),
    gt(payments.createdAt, new Date(Date.now() - LATE_WATCH_MS)),
  );

/** The payment watcher has work: a payment address is still watched. */
export const paymentWatchDue = (): SQL =>
  sql`exists (select 1 from ${payments} where ${isWatched()})`;

export class PaymentRepository {
  constructor(readonly db: Db) {}

  async insert(values: typeof payments.$inferInsert, tx?: Tx): Promise<PaymentRow> {
    const [row] = await (tx ?? this.db).insert(payments).values(values).returning();
    if (!row) throw new Error("payment insert returned nothing");
    return row;
  }

  async countOpen(ownerId: string, tx: Tx): Promise<number> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(payments)
      .where(and(eq(payments.ownerId, ownerId), eq(payments.status, "open")));
    return row?.n ?? 0;
  }

  /** Open key payments a device has: each holds an address the watcher reads every block. */
  async countOpenForDevice(deviceId: string, tx: Tx): Promise<number> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(payments)
      .where(
        and(
          eq(payments.kind, "access_key"),
          eq(payments.deviceId, deviceId),
          eq(payments.status, "open"),
        ),
      );
    return row?.n ?? 0;
  }

  /** A key payment, only for the device that started it. */
  async keyPaymentOf(id: string, deviceId: string): Promise<PaymentRow | undefined> {
    const [row] = await this.db
      .select()
      .from(payments)
      .where(
        and(eq(payments.id, id), eq(payments.kind, "access_key"), eq(payments.deviceId, deviceId)),
      )
      .limit(1);
    return row;
  }

  /**
   * Marks a paid key payment's key handed out, in the caller's transaction: exactly one caller
   * gets the row (and creates the key), however many status polls race.
   */
  async claimKeyIssue(tx: Tx, id: string): Promise<PaymentRow | undefined> {
    const [row] = await tx
      .update(payments)
      .set({ keyIssuedAt: sql`now()` })
      .where(and(eq(payments.id, id), eq(payments.status, "paid"), isNull(payments.keyIssuedAt)))
      .returning();
    return row;
  }

  /** The key a payment bought is this user's: their spending counts it. */
  async setOwner(tx: Tx, id: string, ownerId: string): Promise<void> {
    await tx.update(payments).set({ ownerId }).where(eq(payments.id, id));
  }

  async byId(id: string): Promise<PaymentRow | undefined> {
    const [row] = await this.db.select().from(payments).where(eq(payments.id, id)).limit(1);
    return row;
  }

  /**
   * What the payment-status poll reads, in one query: the owner's live draft's status and its
   * current payment (no logo, no addresses of the draft, no keys); undefined for another
   * user's or a deleted draft.
   */
  async statusOf(
    draftId: string,
    ownerId: string,
  ): Promise<
    | {
        draftStatus: DraftRow["status"];
        payment: Pick<PaymentRow, "status" | "address" | "lastBalance" | "expiresAt"> | null;
      }
    | undefined
  > {
    const [row] = await this.db
      .select({
        draftStatus: drafts.status,
        status: payments.status,
        address: payments.address,
        lastBalance: payments.lastBalance,
        expiresAt: payments.expiresAt,
      })
      .from(drafts)
      .leftJoin(payments, eq(payments.id, drafts.paymentId))
      .where(and(eq(drafts.id, draftId), eq(drafts.ownerId, ownerId), isNull(drafts.deletedAt)))
      .limit(1);
    if (!row) return undefined;
    const { draftStatus, status, address, lastBalance, expiresAt } = row;
    return {
      draftStatus,
      payment:
        status && address && lastBalance !== null && expiresAt
          ? { status, address, lastBalance, expiresAt }
          : null,
    };
  }

  /**
   * The addresses whose incoming transfers the block scan records: open ones, unsettled ones,
   * and closed ones recent enough that a late transfer may still come (two columns only: the
   * scan just matches addresses).
   */
  async scanSet(): Promise<Array<{ id: string; address: string; scanFromBlock: bigint }>> {
    return this.db
      .select({ id: payments.id, address: payments.address, scanFromBlock: payments.scanFromBlock })
      .from(payments)
      .where(isWatched());
  }

  /** The payments that need a look this pass: open, or holding money not yet settled. */
  async active(): Promise<PaymentRow[]> {
    return this.db
      .select()
      .from(payments)
      .where(or(eq(payments.status, "open"), isNull(payments.settledAt)))
      .orderBy(asc(payments.createdAt));
  }

  /**
   * The single conditional transition that credits a payment: exactly one caller gets `true`,
   * however many watchers or restarts race on it. A launch fee moves its draft to paid; `credited`
   * runs in the same transaction (a referral reward), so it happens exactly when the credit does.
   * `credit` says the block it was judged at and, for a credit by balance, each deposit's part
   * that goes back (money the scan did not see counted first).
   */
  async markPaid(
    payment: PaymentRow,
    credit: Credit,
    credited?: PaymentCredited,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [won] = await tx
        .update(payments)
        .set({ status: "paid", paidAt: sql`now()`, paidBlock: credit.atBlock })
        .where(and(eq(payments.id, payment.id), eq(payments.status, "open")))
        .returning();
      if (!won) return false;
      for (const { txHash, refundable } of credit.refundable)
        await tx
          .update(paymentDeposits)
          .set({ refundable })
          .where(
            and(eq(paymentDeposits.txHash, txHash), eq(paymentDeposits.paymentId, payment.id)),
          );
      if (won.draftId)
        await tx
          .update(drafts)
          .set({ status: "paid", updatedAt: sql`now()` })
          .where(
            and(
              eq(drafts.id, won.draftId),
              eq(drafts.paymentId, payment.id),
              eq(drafts.status, "pending_payment"),
            ),
          );
      await credited?.(tx, won);
      return true;
    });
  }

  /** open → cancelled/expired, and a draft back to draft; false when it was no longer open. */
  async close(paymentId: string, status: "cancelled" | "expired"): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(payments)
        .set({ status, closedAt: sql`now()` })
        .where(and(eq(payments.id, paymentId), eq(payments.status, "open")))
        .returning();
      if (!row) return false;
      if (row.draftId)
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

  /** Writes only the balances that changed. */
  async setBalances(entries: Array<{ payment: PaymentRow; balance: bigint }>): Promise<void> {
    for (const { payment, balance } of entries) {
      if (BigInt(payment.lastBalance) === balance) continue;
      await this.db
        .update(payments)
        .set({ lastBalance: balance.toString() })
        .where(eq(payments.id, payment.id));
      payment.lastBalance = balance.toString();
    }
  }

  async depositsOf(paymentIds: string[]): Promise<DepositRow[]> {
    if (paymentIds.length === 0) return [];
    return this.db
      .select()
      .from(paymentDeposits)
      .where(inArray(paymentDeposits.paymentId, paymentIds))
      .orderBy(asc(paymentDeposits.blockNumber));
  }

  /** Records a deposit once; a new one makes its payment unsettled again. */
  async insertDeposit(values: typeof paymentDeposits.$inferInsert): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .insert(paymentDeposits)
        .values(values)
        .onConflictDoNothing()
        .returning({ txHash: paymentDeposits.txHash });
      if (rows.length === 0) return false;
      await tx.update(payments).set({ settledAt: null }).where(eq(payments.id, values.paymentId));
      return true;
    });
  }

  /** The deposit's refundable part stays at the payment address, for `reason`. */
  async hold(txHash: string, reason: string): Promise<void> {
    await this.db
      .update(paymentDeposits)
      .set({ heldReason: reason })
      .where(and(eq(paymentDeposits.txHash, txHash), isNull(paymentDeposits.heldReason)));
  }

  async markSwept(paymentId: string): Promise<void> {
    await this.db
      .update(payments)
      .set({ sweptAt: sql`now()` })
      .where(and(eq(payments.id, paymentId), isNull(payments.sweptAt)));
  }

  /**
   * Nothing left to do with this payment's money, judged on `depositsSeen` deposits: a deposit
   * recorded meanwhile (another worker's scan) keeps it unsettled.
   */
  async settle(paymentId: string, depositsSeen: number): Promise<void> {
    await this.db
      .update(payments)
      .set({ settledAt: sql`now()` })
      .where(
        and(
          eq(payments.id, paymentId),
          isNull(payments.settledAt),
          sql`(select count(*) from ${paymentDeposits} where ${paymentDeposits.paymentId} = ${paymentId}) = ${depositsSeen}`,
        ),
      );
  }

  /** Every payment of these drafts (refunds are shown on the draft). */
  async ofDrafts(draftIds: string[]): Promise<PaymentRow[]> {
    if (draftIds.length === 0) return [];
    return this.db.select().from(payments).where(inArray(payments.draftId, draftIds));
  }
}
