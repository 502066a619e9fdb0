import type { Draft } from "@bundler/shared";
import { formatEther } from "viem";
import type { PaymentRepository } from "../payments/payment.repository.ts";
import { refundKey } from "../payments/payment.watcher.ts";
import type { TxRow } from "../transactions/transactions.repository.ts";
import type { TxManager } from "../transactions/tx-manager.ts";
import type { PaymentRow } from "./drafts.repository.ts";

export type Refund = Draft["refunds"][number];

const STATUS: Record<TxRow["status"], Refund["status"]> = {
  signed: "pending",
  sent: "pending",
  mined: "sent",
  reverted: "failed",
  replaced: "failed",
  dropped: "failed",
};

/**
 * What each draft's payments gave back, for the draft's page: every refund (its latest attempt,
 * with its state) and every deposit held instead of refunded, with why.
 */
export class PaymentRefunds {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly txs: Pick<TxManager, "bySubjects"> | undefined,
  ) {}

  /**
   * Each draft's refunds, with every payment of these drafts that it read: a draft's current
   * payment is one of them (each payment is made for its draft), so a page needs no read of its own.
   */
  async withPayments(
    draftIds: string[],
  ): Promise<{ payments: PaymentRow[]; refunds: Map<string, Refund[]> }> {
    const payments = await this.payments.ofDrafts(draftIds);
    return { payments, refunds: await this.ofPayments(draftIds, payments) };
  }

  private async ofPayments(
    draftIds: string[],
    payments: PaymentRow[],
  ): Promise<Map<string, Refund[]>> {
    const byDraft = new Map<string, Refund[]>(draftIds.map((id) => [id, []]));
    if (payments.length === 0) return byDraft;
    const ids = payments.map((p) => p.id);
    const [deposits, txs] = await Promise.all([
      this.payments.depositsOf(ids),
      this.txs ? this.txs.bySubjects(ids) : Promise.resolve([]),
    ]);
    for (const payment of payments) {
      if (!payment.draftId) continue;
      const list = byDraft.get(payment.draftId) ?? [];
      for (const deposit of deposits.filter((d) => d.paymentId === payment.id)) {
        const key = refundKey(payment.id, deposit.txHash);
        const last = txs
          .filter((t) => t.key === key || t.key.startsWith(`${key}#`))
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
          .at(-1);
        if (last)
          list.push({
            to: last.to ?? "",
            amount: formatEther(BigInt(last.value)),
            reason: last.reason ?? "",
            txHash: last.status === "signed" ? null : last.txHash,
            status: STATUS[last.status],
          });
        if (deposit.heldReason) {
          const owed = payment.status === "paid" ? deposit.refundable : deposit.value;
          list.push({
            to: deposit.from,
            amount: formatEther(BigInt(owed)),
            reason: `Held at the payment address: ${deposit.heldReason}`,
            txHash: null,
            status: "held",
          });
        }
      }
      byDraft.set(payment.draftId, list);
    }
    return byDraft;
  }
}
