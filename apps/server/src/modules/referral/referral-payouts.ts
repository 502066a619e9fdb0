import { keyAccount, TRANSFER_GAS } from "@bundler/chain";
import { bnbWords } from "@bundler/shared";
import type { Address, Hex } from "viem";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { ConflictError, ServiceUnavailableError } from "../../lib/errors.ts";
import { isFinal, type TxRow, type TxSummary } from "../transactions/transactions.repository.ts";
import type { TxManager } from "../transactions/tx-manager.ts";
import type { ClaimRow, ReferralRepository } from "./referral.repository.ts";

/** The transaction key of a claim's payout attempt `attempt` (1-based): one payout per attempt. */
export const payoutKey = (claimId: string, attempt: number) =>
  `referral-claim:${claimId}:payout:${attempt}`;

const attemptOf = (row: TxSummary): number => Number(row.key.split(":").at(-1));

/**
 * Pays claims from the treasury wallet through the transaction manager. An admin's "complete"
 * records the next payout attempt (with its audit row); `send` then records and broadcasts that
 * attempt's transfer under its own key, so a repeat, a restart or a second process never pays
 * twice. Each block `tick` settles every payout on its way: mined → the claim is completed;
 * reverted, replaced or dropped → it stays pending with the reason (the admin may complete it
 * again, or reject it); an attempt recorded but never sent (a crash) is sent.
 */
export class ReferralPayouts {
  constructor(
    private readonly repository: ReferralRepository,
    private readonly chain: ChainContext | undefined,
    private readonly txm: TxManager | undefined,
    private readonly treasuryKey: Hex | undefined,
    private readonly log: (message: string) => void = () => {},
  ) {}

  private treasury() {
    if (!this.treasuryKey)
      throw new ServiceUnavailableError(
        "No treasury key is configured (TREASURY_PRIVATE_KEY or TREASURY_KEY_FILE): claims cannot be paid",
      );
    const chain = requireChain(this.chain);
    if (!this.txm) throw new ServiceUnavailableError("chain unavailable");
    return { account: keyAccount(this.treasuryKey), chain, txm: this.txm };
  }

  /** Refuses, before anything is recorded, a payout the treasury cannot make. */
  async assertCanPay(claim: ClaimRow): Promise<void> {
    const { account, chain, txm } = this.treasury();
    const [balance, gasPrice] = await Promise.all([
      chain.client.getBalance({ address: account.address }),
      txm.gasPrice(),
    ]);
    const needed = BigInt(claim.amount) + TRANSFER_GAS * gasPrice;
    if (balance < needed)
      throw new ConflictError(
        `The treasury ${account.address} holds ${bnbWords(balance)}, less than this claim's ${bnbWords(BigInt(claim.amount))} plus gas: fund it, then complete the claim again`,
      );
  }

  /** Records and broadcasts the claim's current attempt (idempotent), and shows its hash. */
  async send(claim: ClaimRow): Promise<TxRow> {
    const { account, txm } = this.treasury();
    const attempt = claim.payoutAttempts;
    const [row] = await txm.send([
      {
        key: payoutKey(claim.id, attempt),
        // Completed again after a failed attempt: never both paid (same nonce, or refused).
        ...(attempt > 1 ? { retries: payoutKey(claim.id, attempt - 1) } : {}),
        purpose: "referral-payout",
        ownerId: claim.userId,
        subject: claim.id,
        account,
        to: claim.receivingAddress as Address,
        value: BigInt(claim.amount),
        gas: TRANSFER_GAS,
        reason: "referral reward claim",
      },
    ]);
    if (!row) throw new Error("the payout was not recorded");
    await this.repository.setPayoutHash(claim.id, attempt, row.txHash);
    return row;
  }

  /** Waits up to `timeoutMs` for the claim's current payout, then settles it. */
  async settleSoon(claim: ClaimRow, timeoutMs: number): Promise<void> {
    const { txm } = this.treasury();
    await txm
      .waitFinal([payoutKey(claim.id, claim.payoutAttempts)], { timeoutMs, pollMs: 250 })
      .catch(() => {});
    await this.settle([claim]);
  }

  /** One pass over every payout on its way. */
  async tick(): Promise<void> {
    const claims = await this.repository.payoutsInFlight();
    if (claims.length > 0) await this.settle(claims);
  }

  private async settle(claims: ClaimRow[]): Promise<void> {
    if (!this.txm) return;
    const txs = await this.txm.bySubjects(claims.map((c) => c.id));
    for (const claim of claims) {
      const attempts = txs.filter((t) => t.subject === claim.id && t.purpose === "referral-payout");
      const mined = attempts.find((t) => t.status === "mined");
      if (mined) {
        await this.repository.complete(claim.id, mined.txHash);
        continue;
      }
      const current = attempts.find((t) => attemptOf(t) === claim.payoutAttempts);
      if (!current) {
        // Recorded by an admin, never sent (the process died in between): send it now.
        await this.send(claim).catch((error: Error) =>
          this.log(`referral payout ${claim.id}: ${error.message}`),
        );
        continue;
      }
      if (isFinal(current.status))
        await this.repository.payoutFailed(
          claim.id,
          claim.payoutAttempts,
          current.txHash,
          `The payout ${current.status === "reverted" ? "reverted" : `was ${current.status}`}${current.error ? `: ${current.error}` : ""}`,
        );
    }
  }

  /**
   * Whether a failed payout of this claim landed after all or could still land: one mined (a
   * dropped one the chain took later), one dropped that has a receipt the reconcile has not
   * recorded yet, or one dropped whose nonce the treasury has not used since. Rejecting then
   * could pay the claim and refund it too.
   */
  async mayStillLand(claim: ClaimRow): Promise<"landed" | "may land" | null> {
    if (claim.payoutAttempts === 0 || !this.txm) return null;
    const attempts = (await this.txm.bySubjects([claim.id])).filter(
      (t) => t.purpose === "referral-payout",
    );
    if (attempts.some((t) => t.status === "mined")) return "landed";
    const fates = await this.txm.fates(attempts.filter((t) => t.status === "dropped"));
    if (fates.includes("landed")) return "landed";
    return fates.includes("may land") || fates.includes("settling") ? "may land" : null;
  }
}
