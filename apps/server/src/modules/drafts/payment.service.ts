import { PAYMENT_WINDOW_SECONDS, QUOTAS } from "@bundler/shared";
import { type Address, formatEther } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { BadRequestError, ConflictError } from "../../lib/errors.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import { lockUser } from "../../lib/quota.ts";
import type { PaymentRepository } from "../payments/payment.repository.ts";
import type { DraftsRepository } from "./drafts.repository.ts";
import { type DraftsService, draftNotFound } from "./drafts.service.ts";

export class PaymentService {
  constructor(
    private readonly drafts: DraftsService,
    private readonly draftRows: DraftsRepository,
    private readonly payments: PaymentRepository,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext | undefined,
    /** The launch fee, wei. */
    private readonly amount: bigint,
    private readonly windowSeconds: number = PAYMENT_WINDOW_SECONDS,
  ) {}

  /**
   * A fresh payment address for the draft; its key is committed before the address is shown.
   * A draft already waiting for its payment gets the same open address back; one whose window
   * has passed gets a new address at once, unless money sits at the old one (the watcher
   * decides whether it came in time). The old address stays watched, so a late transfer to it
   * is refunded.
   */
  async start(ownerId: string, draftId: string) {
    let draft = await this.drafts.owned(ownerId, draftId);
    const chain = requireChain(this.chain);
    if (draft.status === "pending_payment" && draft.paymentId) {
      const open = await this.payments.byId(draft.paymentId);
      if (open?.status === "open") {
        if (open.expiresAt.getTime() > Date.now())
          return this.answer(open.address, BigInt(open.amount), open.expiresAt);
        const held = await chain.client.getBalance({ address: open.address as Address });
        if (held > 0n)
          throw new ConflictError(
            "A payment reached this draft's address as its window closed and is being checked: try again in a few seconds",
          );
        await this.payments.close(open.id, "expired");
        draft = await this.drafts.owned(ownerId, draftId);
      }
    }
    if (draft.status !== "draft") {
      throw new ConflictError(
        draft.status === "pending_payment"
          ? "A payment for this draft is already open"
          : "This draft is already paid",
      );
    }
    const problem = await this.drafts.launchProblem(draft);
    if (problem) throw new BadRequestError(problem);

    const head = await chain.client.getBlockNumber();
    const expiresAt = new Date(Date.now() + this.windowSeconds * 1000);
    // The key, the payment and the draft's move commit together, before the address is shown.
    const address = await this.draftRows.transaction(async (tx) => {
      await lockUser(tx, ownerId);
      if ((await this.payments.countOpen(ownerId, tx)) >= QUOTAS.openPayments)
        throw new ConflictError(
          `You already have ${QUOTAS.openPayments} launch-fee payments open, the most one key may keep: pay or cancel one of them, then try again`,
        );
      const [stored] = await this.vault.store(
        [{ privateKey: generatePrivateKey(), purpose: "payment" }],
        { ownerId, draftId },
        tx,
      );
      if (!stored) throw new Error("payment key not stored");
      const payment = await this.payments.insert(
        {
          draftId,
          ownerId,
          address: stored.address,
          amount: this.amount.toString(),
          expiresAt,
          scanFromBlock: head,
        },
        tx,
      );
      const moved = await this.draftRows.updateIf(
        draftId,
        ownerId,
        ["draft"],
        { status: "pending_payment", paymentId: payment.id },
        tx,
      );
      if (!moved) throw new ConflictError("This draft changed meanwhile, try again");
      return stored.address;
    });
    return this.answer(address, this.amount, expiresAt);
  }

  private answer(address: string, amount: bigint, expiresAt: Date) {
    return {
      paymentAddress: address,
      paymentAmount: formatEther(amount),
      expiresAt: expiresAt.toISOString(),
    };
  }

  /**
   * The payment dialog's poll (every 5 s): one database read without the draft's logo or keys.
   * What the address received is the balance the payment watcher recorded on its last block
   * (it reads every open payment's balance on each block), not a chain read per poll.
   */
  async status(ownerId: string, draftId: string) {
    const row = await this.payments.statusOf(draftId, ownerId);
    if (!row) throw draftNotFound();
    const { draftStatus, payment } = row;
    const received = payment ? BigInt(payment.lastBalance) : 0n;
    return {
      isPaid: ["paid", "executing", "executed"].includes(draftStatus),
      status: draftStatus,
      received: formatEther(received),
      expiresAt: payment?.expiresAt.toISOString() ?? null,
    };
  }

  async cancel(ownerId: string, draftId: string): Promise<string> {
    const draft = await this.drafts.owned(ownerId, draftId);
    if (draft.status !== "pending_payment" || !draft.paymentId)
      throw new ConflictError(
        draft.status === "draft" ? "There is no payment to cancel" : "This draft is already paid",
      );
    const closed = await this.payments.close(draft.paymentId, "cancelled");
    if (!closed) throw new ConflictError("This payment was already received or closed");
    return "Payment cancelled; anything sent to the payment address will be refunded";
  }
}
