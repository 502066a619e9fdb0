import { type JobEngine, perBlockQueue, type QueueSpec } from "../../lib/jobs.ts";
import { payoutsDue } from "./referral.repository.ts";
import type { ReferralPayouts } from "./referral-payouts.ts";

/**
 * Each block: every claim payout on its way is settled (mined → completed, failed → pending with
 * the reason, recorded but unsent → sent). One pass at a time across every process.
 */
export const REFERRAL_PAYOUTS: QueueSpec = perBlockQueue("referral-payouts");

export const workReferralJobs = async (
  jobs: JobEngine,
  payouts: ReferralPayouts,
): Promise<void> => {
  await jobs.onEachBlock(REFERRAL_PAYOUTS, () => payouts.tick(), payoutsDue);
};
