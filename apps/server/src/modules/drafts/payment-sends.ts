import { signTransfer } from "@bundler/chain";
import { type Address, type Hex, keccak256, TransactionReceiptNotFoundError } from "viem";
import type { privateKeyToAccount } from "viem/accounts";
import type { ChainContext } from "../../lib/chain-context.ts";
import type { PaymentRow, SendRow } from "./drafts.repository.ts";
import type { PaymentRepository } from "./payment.repository.ts";

/**
 * The payment watcher's outgoing transfers (refunds, sweeps): each is signed and RECORDED
 * (nonce, raw transaction, hash) before it is broadcast, and one not known to be mined is
 * checked on the chain before anything is sent again.
 */
export class PaymentSends {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly chain: ChainContext,
    private readonly log?: (message: string) => void,
  ) {}

  async gasPrice(): Promise<bigint> {
    const price = await this.chain.client.getGasPrice();
    const floor = this.chain.profile.gasPriceFloor;
    if (price < floor) return floor;
    return price;
  }

  /** Signs and RECORDS a transfer; nothing is broadcast yet. */
  async sign(
    account: ReturnType<typeof privateKeyToAccount>,
    payment: PaymentRow,
    kind: "refund" | "sweep",
    to: Address,
    value: bigint,
    gasPrice: bigint,
    reason: string,
  ): Promise<SendRow> {
    const nonce = await this.chain.client.getTransactionCount({
      address: account.address,
      blockTag: "pending",
    });
    const raw = await signTransfer({
      account,
      chainId: this.chain.chainId,
      to,
      value,
      nonce,
      gasPrice,
    });
    return this.payments.insertSend({
      kind,
      paymentId: payment.id,
      draftId: payment.draftId,
      from: account.address,
      to,
      value: value.toString(),
      nonce,
      rawTx: raw,
      txHash: keccak256(raw),
      reason,
    });
  }

  async broadcast(send: SendRow): Promise<void> {
    try {
      await this.chain.client.sendRawTransaction({ serializedTransaction: send.rawTx as Hex });
    } catch (error) {
      const message = (error as Error).message;
      if (!/already known|nonce too low/i.test(message)) {
        this.log?.(`payment watcher: broadcast of ${send.txHash} failed: ${message}`);
        return; // resumeSends decides on the next tick, from the chain
      }
    }
    await this.payments.setSend(send.id, { status: "sent" });
    try {
      const receipt = await this.chain.client.waitForTransactionReceipt({
        hash: send.txHash as Hex,
        timeout: 30_000,
        pollingInterval: 250,
      });
      await this.finish(send, receipt.status === "success" ? null : "the transfer reverted");
    } catch {
      // Not mined yet: resumeSends picks it up next tick.
    }
  }

  private async finish(send: SendRow, error: string | null) {
    await this.payments.setSend(
      send.id,
      error ? { status: "failed", error } : { status: "confirmed" },
    );
    if (error) {
      if (send.kind === "refund") await this.payments.releaseRefund(send.id);
      else if (send.paymentId) await this.payments.releaseSweep(send.paymentId);
    }
  }

  /** Transfers recorded but not known to be mined: ask the chain before sending anything again. */
  async resumeSends(): Promise<void> {
    for (const send of await this.payments.unfinishedSends()) {
      // Only "no receipt" means not mined; any other error ends the tick (nothing is decided).
      const receipt = await this.chain.client
        .getTransactionReceipt({ hash: send.txHash as Hex })
        .catch((error: unknown) => {
          if (error instanceof TransactionReceiptNotFoundError) return null;
          throw error;
        });
      if (receipt) {
        await this.finish(send, receipt.status === "success" ? null : "the transfer reverted");
        continue;
      }
      const mined = await this.chain.client.getTransactionCount({ address: send.from as Address });
      if (mined > send.nonce) {
        await this.finish(send, "replaced by another transaction with the same nonce");
        continue;
      }
      await this.broadcast(send);
    }
  }
}
