import { bnbWords } from "@bundler/shared";
import type { Tx } from "../../db/client.ts";
import { ConflictError, NotFoundError } from "../../lib/errors.ts";
import { failpoint } from "../../lib/failpoints.ts";
import type { ClaimRow, ClaimWithOwner, ReferralRepository } from "./referral.repository.ts";
import type { ReferralPayouts } from "./referral-payouts.ts";

/** Writes the decision's audit row, inside the decision's own transaction. */
export type AuditDecision = (tx: Tx, claim: ClaimRow) => Promise<void>;

/** How long "complete" waits for its payout to be mined before answering it pending. */
const SETTLE_WAIT_MS = 8000;

const notFound = () => new NotFoundError("Claim not found");

/**
 * An admin's decisions on claims. Each one commits with its audit row or not at all: completing
 * records the next payout attempt (then sends it, outside the transaction; a crash in between
 * leaves it to the payout job), rejecting returns the amount to claimable.
 */
export class ClaimDecisions {
  constructor(
    private readonly repository: ReferralRepository,
    private readonly payouts: ReferralPayouts,
  ) {}

  async complete(id: string, adminId: string, audit: AuditDecision): Promise<ClaimWithOwner> {
    const claim = await this.repository.claim(id);
    if (!claim) throw notFound();
    this.assertPending(claim);
    if (claim.payoutAttempts > 0 && !claim.reason)
      throw new ConflictError("This claim's payout is on its way: wait until it is mined");
    await this.payouts.assertCanPay(claim);
    const approved = await this.repository.transaction(async (tx) => {
      const row = await this.repository.approvePayout(tx, id, adminId);
      if (!row) throw new ConflictError("This claim changed meanwhile: reload it");
      await audit(tx, row);
      return row;
    });
    await failpoint("claim.approved");
    // The decision is recorded: if sending fails here, the payout job sends it on the next block.
    // Not sent (an earlier attempt landed after all, say): settled at once, from what is known.
    await this.payouts
      .send(approved)
      .then(
        () => this.payouts.settleSoon(approved, SETTLE_WAIT_MS),
        () => this.payouts.settleSoon(approved, 0),
      )
      .catch(() => {});
    return (await this.repository.claim(id)) as ClaimWithOwner;
  }

  async reject(
    id: string,
    adminId: string,
    reason: string | null,
    audit: AuditDecision,
  ): Promise<ClaimWithOwner> {
    const claim = await this.repository.claim(id);
    if (!claim) throw notFound();
    this.assertPending(claim);
    if (claim.payoutAttempts > 0 && !claim.reason)
      throw new ConflictError("This claim's payout is on its way: it can no longer be rejected");
    const landing = await this.payouts.mayStillLand(claim);
    if (landing === "landed")
      throw new ConflictError(
        "A payout of this claim landed after the node had dropped it: the claim is paid; complete it to record that (nothing more is sent)",
      );
    if (landing === "may land")
      throw new ConflictError(
        "A payout of this claim was dropped by the node but could still land: complete it again (its transfer takes the same nonce) instead of rejecting it",
      );
    await this.repository.transaction(async (tx) => {
      const row = await this.repository.reject(tx, id, adminId, reason);
      if (!row) throw new ConflictError("This claim changed meanwhile: reload it");
      await audit(tx, row);
    });
    return (await this.repository.claim(id)) as ClaimWithOwner;
  }

  private assertPending(claim: ClaimRow): void {
    if (claim.status !== "pending")
      throw new ConflictError(
        `This claim of ${bnbWords(BigInt(claim.amount))} is already ${claim.status}`,
      );
  }
}
