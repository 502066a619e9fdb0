import { and, count, desc, eq, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.ts";
import { referralClaims, referralCodes, referralRewards, users } from "../../db/schema.ts";

export type ReferralCodeRow = typeof referralCodes.$inferSelect;
export type ClaimRow = typeof referralClaims.$inferSelect;
export type RewardKind = (typeof referralRewards.$inferSelect)["kind"];

/** A claim with its claimant's key prefix, for admins. */
export type ClaimWithOwner = ClaimRow & { keyPrefix: string };

const claimWithOwner = { claim: referralClaims, keyPrefix: users.keyPrefix };

/** No payout on its way: none asked for yet, or the last one failed (its reason is recorded). */
const payoutIdle = or(eq(referralClaims.payoutAttempts, 0), isNotNull(referralClaims.reason));

/**
 * Referral codes, the reward ledger and claims. Every change of money is one conditional update
 * (or an insert keyed by what it pays for), so it happens once however many processes race.
 */
/** A decided claim's amount leaves `pending`: paid out (`claimed`) or back to `claimable`. */
const movePending = (tx: Tx, claim: ClaimRow, to: "claimed" | "claimable") =>
  tx
    .update(referralCodes)
    .set({
      pending: sql`${referralCodes.pending} - ${claim.amount}`,
      [to]: sql`${referralCodes[to]} + ${claim.amount}`,
    })
    .where(eq(referralCodes.userId, claim.userId));

/** A pending claim with a payout asked for and not known to have failed. */
const isPayoutInFlight = () =>
  and(
    eq(referralClaims.status, "pending"),
    sql`${referralClaims.payoutAttempts} > 0`,
    isNull(referralClaims.reason),
  );

/** The payout pass has work: a payout is on its way. */
export const payoutsDue = (): SQL =>
  sql`exists (select 1 from ${referralClaims} where ${isPayoutInFlight()})`;

export class ReferralRepository {
  constructor(readonly db: Db) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async codeOf(userId: string, tx?: Tx): Promise<ReferralCodeRow | undefined> {
    const [row] = await (tx ?? this.db)
      .select()
      .from(referralCodes)
      .where(eq(referralCodes.userId, userId))
      .limit(1);
    return row;
  }

  /** The active user whose code this is, case-insensitively, with the device of their key. */
  async ownerOfCode(
    code: string,
  ): Promise<{ userId: string; code: string; deviceId: string | null } | undefined> {
    const [row] = await this.db
      .select({ userId: referralCodes.userId, code: referralCodes.code, deviceId: users.deviceId })
      .from(referralCodes)
      .innerJoin(users, eq(users.id, referralCodes.userId))
      .where(and(sql`lower(${referralCodes.code}) = lower(${code})`, eq(users.isActive, true)))
      .limit(1);
    return row;
  }

  /** Inserts the user's code; false when the user has one or the code is taken (unique indexes). */
  async insertCode(userId: string, code: string): Promise<boolean> {
    const rows = await this.db
      .insert(referralCodes)
      .values({ userId, code })
      .onConflictDoNothing()
      .returning({ userId: referralCodes.userId });
    return rows.length > 0;
  }

  /** Users whose key came with this user's code. */
  async usesOf(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(users)
      .where(eq(users.referredBy, userId));
    return row?.n ?? 0;
  }

  /** Whom a user was referred by, read inside a credit's transaction. */
  async referrerOf(tx: Tx, userId: string): Promise<string | null> {
    const [row] = await tx
      .select({ referredBy: users.referredBy })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row?.referredBy ?? null;
  }

  /**
   * Whether money of the referrer's own paid for `paymentId` or for any paid payment of
   * `referredId` (the key purchase that made them, their launch fees): a deposit came from an
   * address the referrer holds a key for (their drafts', bumpers', dispersals' and payment
   * wallets), paid one of the referrer's own payments from, or asked a claim's payout to. What
   * the chain says, not what a request claims (a header, a device id).
   */
  async paidByReferrer(
    tx: Tx,
    paymentId: string,
    referredId: string | null,
    referrerId: string,
  ): Promise<boolean> {
    const { rows } = await tx.execute(sql`
      with payers as (
        select lower(d."from") as address from payment_deposits d join payments p on p.id = d.payment_id
          where p.id = ${paymentId}
            or (${referredId}::uuid is not null and p.owner_id = ${referredId} and p.status = 'paid')
      ), own as (
        select lower(k.address) as address from wallet_keys k where k.owner_id = ${referrerId}
        union select lower(p.address) from payments p where p.owner_id = ${referrerId}
        union select lower(d."from") from payment_deposits d join payments p on p.id = d.payment_id
          where p.owner_id = ${referrerId}
        union select lower(c.receiving_address) from referral_claims c where c.user_id = ${referrerId}
      )
      select exists (select 1 from payers join own using (address)) as own`);
    return (rows[0] as { own: boolean } | undefined)?.own === true;
  }

  /**
   * Credits a reward inside the payment's credit transaction: the ledger row is keyed by the
   * payment, so a second credit of the same payment adds nothing. Answers whether it credited.
   */
  async credit(
    tx: Tx,
    entry: { paymentId: string; referrerId: string; kind: RewardKind; amount: bigint },
  ): Promise<boolean> {
    const written = await tx
      .insert(referralRewards)
      .values({ ...entry, amount: entry.amount.toString() })
      .onConflictDoNothing()
      .returning({ paymentId: referralRewards.paymentId });
    if (written.length === 0) return false;
    const updated = await tx
      .update(referralCodes)
      .set({
        earned: sql`${referralCodes.earned} + ${entry.amount.toString()}`,
        claimable: sql`${referralCodes.claimable} + ${entry.amount.toString()}`,
      })
      .where(eq(referralCodes.userId, entry.referrerId))
      .returning({ userId: referralCodes.userId });
    if (updated.length === 0) throw new Error(`referrer ${entry.referrerId} has no referral code`);
    return true;
  }

  /**
   * Reserves the whole claimable amount in one conditional update (claimable → pending, only
   * while nothing is pending) and records the claim in the same transaction. Undefined when
   * there was nothing to reserve or a claim is pending.
   */
  async reserveClaim(userId: string, receivingAddress: string): Promise<ClaimRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [reserved] = await tx
        .update(referralCodes)
        .set({ claimable: "0", pending: sql`${referralCodes.claimable}` })
        .where(
          and(
            eq(referralCodes.userId, userId),
            sql`${referralCodes.claimable} > 0`,
            sql`${referralCodes.pending} = 0`,
          ),
        )
        .returning({ amount: referralCodes.pending });
      if (!reserved) return undefined;
      const [claim] = await tx
        .insert(referralClaims)
        .values({ userId, amount: reserved.amount, receivingAddress })
        .returning();
      return claim;
    });
  }

  async claimsOf(userId: string): Promise<ClaimWithOwner[]> {
    const rows = await this.db
      .select(claimWithOwner)
      .from(referralClaims)
      .innerJoin(users, eq(users.id, referralClaims.userId))
      .where(eq(referralClaims.userId, userId))
      .orderBy(desc(referralClaims.requestedAt));
    return rows.map(({ claim, keyPrefix }) => ({ ...claim, keyPrefix }));
  }

  async claim(id: string, tx?: Tx): Promise<ClaimWithOwner | undefined> {
    const [row] = await (tx ?? this.db)
      .select(claimWithOwner)
      .from(referralClaims)
      .innerJoin(users, eq(users.id, referralClaims.userId))
      .where(eq(referralClaims.id, id))
      .limit(1);
    return row ? { ...row.claim, keyPrefix: row.keyPrefix } : undefined;
  }

  /** Every user's claims, newest first, optionally of one status. */
  async claimsPage(
    status: ClaimRow["status"] | undefined,
    limit: number,
    offset: number,
  ): Promise<{ claims: ClaimWithOwner[]; total: number }> {
    const where = status ? eq(referralClaims.status, status) : undefined;
    const [rows, [total]] = await Promise.all([
      this.db
        .select(claimWithOwner)
        .from(referralClaims)
        .innerJoin(users, eq(users.id, referralClaims.userId))
        .where(where)
        .orderBy(desc(referralClaims.requestedAt), desc(referralClaims.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ n: count() }).from(referralClaims).where(where),
    ]);
    return {
      claims: rows.map(({ claim, keyPrefix }) => ({ ...claim, keyPrefix })),
      total: total?.n ?? 0,
    };
  }

  /**
   * An admin asks for a payout: the next attempt, allowed while the claim is pending with no
   * payout on its way (none asked yet, or the last one failed). Undefined otherwise.
   */
  async approvePayout(tx: Tx, id: string, adminId: string): Promise<ClaimRow | undefined> {
    const [row] = await tx
      .update(referralClaims)
      .set({
        payoutAttempts: sql`${referralClaims.payoutAttempts} + 1`,
        reason: null,
        txHash: null,
        decidedBy: adminId,
      })
      .where(and(eq(referralClaims.id, id), eq(referralClaims.status, "pending"), payoutIdle))
      .returning();
    return row;
  }

  /** The payout of `attempt` is recorded and sent: its hash shows on the claim. */
  async setPayoutHash(id: string, attempt: number, txHash: string): Promise<void> {
    await this.db
      .update(referralClaims)
      .set({ txHash })
      .where(
        and(
          eq(referralClaims.id, id),
          eq(referralClaims.status, "pending"),
          eq(referralClaims.payoutAttempts, attempt),
          isNull(referralClaims.reason),
        ),
      );
  }

  /** The payout of `attempt` ended without landing: the claim stays pending, with why. */
  async payoutFailed(id: string, attempt: number, txHash: string, reason: string): Promise<void> {
    await this.db
      .update(referralClaims)
      .set({ txHash, reason })
      .where(
        and(
          eq(referralClaims.id, id),
          eq(referralClaims.status, "pending"),
          eq(referralClaims.payoutAttempts, attempt),
          isNull(referralClaims.reason),
        ),
      );
  }

  /** pending → completed once a payout is mined; the amount moves from pending to claimed. */
  async complete(id: string, txHash: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(referralClaims)
        .set({ status: "completed", txHash, reason: null, decidedAt: sql`now()` })
        .where(and(eq(referralClaims.id, id), eq(referralClaims.status, "pending")))
        .returning();
      if (!row) return false;
      await movePending(tx, row, "claimed");
      return true;
    });
  }

  /**
   * pending → rejected while no payout is on its way; the amount returns to claimable in the
   * same transaction. Undefined when the claim was not in that state.
   */
  async reject(
    tx: Tx,
    id: string,
    adminId: string,
    reason: string | null,
  ): Promise<ClaimRow | undefined> {
    const [row] = await tx
      .update(referralClaims)
      .set({ status: "rejected", reason, decidedBy: adminId, decidedAt: sql`now()` })
      .where(and(eq(referralClaims.id, id), eq(referralClaims.status, "pending"), payoutIdle))
      .returning();
    if (!row) return undefined;
    await movePending(tx, row, "claimable");
    return row;
  }

  /** Pending claims with a payout asked for and not known to have failed: the job's work. */
  async payoutsInFlight(): Promise<ClaimRow[]> {
    return this.db.select().from(referralClaims).where(isPayoutInFlight());
  }

  /** Every referral balance summed: what the admin stats show. */
  async totals(): Promise<{ earned: string; claimed: string; pending: string }> {
    const [row] = await this.db
      .select({
        earned: sql<string>`coalesce(sum(${referralCodes.earned}), 0)::text`,
        claimed: sql<string>`coalesce(sum(${referralCodes.claimed}), 0)::text`,
        pending: sql<string>`coalesce(sum(${referralCodes.pending}), 0)::text`,
      })
      .from(referralCodes);
    return row ?? { earned: "0", claimed: "0", pending: "0" };
  }
}
