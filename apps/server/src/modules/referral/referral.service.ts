import {
  claimRequestError,
  REFERRAL_MESSAGES,
  type ReferralInfo,
  referralCodeError,
} from "@bundler/shared";
import { formatEther, getAddress } from "viem";
import { BadRequestError, ConflictError } from "../../lib/errors.ts";
import { launchFeeShare, type Pricing } from "../../lib/pricing.ts";
import type { PaymentCredited } from "../payments/payment.repository.ts";
import type { ClaimRow, ClaimWithOwner, ReferralRepository } from "./referral.repository.ts";

/**
 * The referral program's rules: one code per user, unique case-insensitively; a user is referred
 * when their key came with a valid code; rewards are credited with the payment that earns them
 * (a referred key purchase: `referralReward` USD at the payment's own rate; a referred user's
 * launch fee: referralReward / price of the fee), exactly once per payment; a claim reserves the
 * whole claimable amount at once.
 */
export class ReferralService {
  constructor(
    private readonly repository: ReferralRepository,
    private readonly pricing: Pricing,
  ) {}

  /**
   * The referrer a key request's code names: null without a code, a 400 "Invalid referral code"
   * for a code nobody (active) owns, and a 400 "You cannot use your own referral code" when the
   * requester is its owner: the same user (a logged-in purchase), or the device their key was
   * given to or bought on.
   */
  async referrerOf(
    code: string | undefined,
    requester: { deviceId?: string; userId?: string | null } = {},
  ): Promise<{ userId: string; code: string } | null> {
    if (!code) return null;
    const owner = referralCodeError(code) ? undefined : await this.repository.ownerOfCode(code);
    if (!owner) throw new BadRequestError(REFERRAL_MESSAGES.invalidCode);
    const sameDevice = owner.deviceId !== null && owner.deviceId === requester.deviceId;
    if (owner.userId === requester.userId || sameDevice)
      throw new BadRequestError(REFERRAL_MESSAGES.ownCode);
    return { userId: owner.userId, code: owner.code };
  }

  async createCode(userId: string, input: string): Promise<string> {
    const problem = referralCodeError(input);
    if (problem) throw new BadRequestError(problem);
    const code = input.trim();
    if (await this.repository.codeOf(userId)) throw new ConflictError(REFERRAL_MESSAGES.codeExists);
    if (await this.repository.insertCode(userId, code)) return code;
    // Lost to a unique index: the user's own second request, or someone else's code.
    if (await this.repository.codeOf(userId)) throw new ConflictError(REFERRAL_MESSAGES.codeExists);
    throw new BadRequestError(REFERRAL_MESSAGES.codeTaken);
  }

  async info(userId: string): Promise<ReferralInfo> {
    const [row, uses] = await Promise.all([
      this.repository.codeOf(userId),
      this.repository.usesOf(userId),
    ]);
    const bnb = (wei: string | undefined) => formatEther(BigInt(wei ?? "0"));
    return {
      code: row?.code ?? null,
      uses,
      earned: bnb(row?.earned),
      claimable: bnb(row?.claimable),
      pending: bnb(row?.pending),
      claimed: bnb(row?.claimed),
      hasPendingClaim: BigInt(row?.pending ?? "0") > 0n,
    };
  }

  /**
   * Reserves everything claimable for one claim (SPEC §5's words for what is wrong; 409 while a
   * claim is pending). Two requests at once: one reserves, the other finds a claim pending.
   */
  async requestClaim(userId: string, receivingAddress: string): Promise<ClaimRow> {
    const row = await this.repository.codeOf(userId);
    if (BigInt(row?.pending ?? "0") > 0n) throw new ConflictError(REFERRAL_MESSAGES.claimPending);
    const problem = claimRequestError(formatEther(BigInt(row?.claimable ?? "0")), receivingAddress);
    if (problem) throw new BadRequestError(problem);
    const claim = await this.repository.reserveClaim(userId, getAddress(receivingAddress.trim()));
    if (claim) return claim;
    const now = await this.repository.codeOf(userId);
    if (BigInt(now?.pending ?? "0") > 0n) throw new ConflictError(REFERRAL_MESSAGES.claimPending);
    throw new BadRequestError(REFERRAL_MESSAGES.nothingToClaim);
  }

  claims(userId: string): Promise<ClaimWithOwner[]> {
    return this.repository.claimsOf(userId);
  }

  /** Every user's claims for admins, newest first. */
  claimsPage(status: ClaimRow["status"] | undefined, limit: number, offset: number) {
    return this.repository.claimsPage(status, limit, offset);
  }

  /** Rewards credited, paid out and held by pending claims, over every referrer (wei). */
  totals() {
    return this.repository.totals();
  }

  /**
   * The payment watcher's hook, run in the transaction that credits a payment: a key bought
   * with a code rewards its referrer the reward fixed when the payment started; a referred
   * user's launch fee rewards the referrer's share of it. The ledger is keyed by payment.
   * Nothing is rewarded when the referrer's own money paid (`paidByReferrer`: this payment,
   * or the referred user's earlier ones, came from an address of the referrer's): the checks
   * when a code is used rest on what the request says (its key, its device id), which a
   * referrer buying through their own code can change at will; the addresses cannot lie.
   */
  readonly credited: PaymentCredited = async (tx, payment) => {
    if (payment.kind === "access_key") {
      if (!payment.referrerId || !payment.referralReward) return;
      const amount = BigInt(payment.referralReward);
      if (await this.repository.paidByReferrer(tx, payment.id, null, payment.referrerId)) return;
      if (amount > 0n)
        await this.repository.credit(tx, {
          paymentId: payment.id,
          referrerId: payment.referrerId,
          kind: "access_key",
          amount,
        });
      return;
    }
    if (!payment.ownerId) return;
    const referrerId = await this.repository.referrerOf(tx, payment.ownerId);
    if (!referrerId) return;
    if (await this.repository.paidByReferrer(tx, payment.id, payment.ownerId, referrerId)) return;
    const amount = launchFeeShare(BigInt(payment.amount), this.pricing);
    if (amount > 0n)
      await this.repository.credit(tx, {
        paymentId: payment.id,
        referrerId,
        kind: "launch_fee",
        amount,
      });
  };
}
