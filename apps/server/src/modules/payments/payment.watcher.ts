import { getBalances, keyAccount, TRANSFER_GAS } from "@bundler/chain";
import { type Address, formatEther } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import { ChainCursors } from "../../lib/chain-cursors.ts";
import { applyCredit, creditOf, keptPart } from "../../lib/deposit-credit.ts";
import { type IncomingTransfer, scanNewTransfers } from "../../lib/incoming-transfers.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import { type RefundRoute, refundToSender } from "../../lib/refund-route.ts";
import type { PaymentRow } from "../drafts/drafts.repository.ts";
import { isFinal, type TxSummary } from "../transactions/transactions.repository.ts";
import { RetryRefused, type TxIntent, type TxManager } from "../transactions/tx-manager.ts";
import type { DepositRow, PaymentCredited, PaymentRepository } from "./payment.repository.ts";

/** Block times are whole seconds: a deposit in the block of the window's last second is in time. */
const LATE_SLACK_MS = 1000;
/** A refund or sweep the node drops is sent again at most this many times in all. */
const MAX_ATTEMPTS = 3;
const CURSOR = "payments";

/** Runs `load` at most once, on first use. */
const lazy = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  let value: Promise<T> | undefined;
  return () => {
    value ??= load();
    return value;
  };
};

/** The transaction keys of a payment: each refund is keyed by the deposit it pays back. */
export const refundKey = (paymentId: string, depositHash: string, attempt = 1) =>
  `payment:${paymentId}:refund:${depositHash}${attempt > 1 ? `#${attempt}` : ""}`;
const sweepKey = (paymentId: string, attempt = 1) =>
  `payment:${paymentId}:sweep${attempt > 1 ? `#${attempt}` : ""}`;
/** Attempts at one key, oldest first (`key`, `key#2`, ...). */
const attemptsOf = (txs: TxSummary[], key: string) =>
  txs
    .filter((t) => t.key === key || t.key.startsWith(`${key}#`))
    .sort((a, b) => attemptNumber(a.key) - attemptNumber(b.key));
/** 1 for `key`, n for `key#n`. */
const attemptNumber = (key: string) => Number(/#(\d+)$/.exec(key)?.[1] ?? 1);
/**
 * How many attempts were made: the last one's number (an attempt identical to the dropped one
 * before it is recorded on that one's row, so rows can be fewer than attempts).
 */
const attemptsMade = (attempts: TxSummary[]) => {
  const last = attempts.at(-1);
  return last ? attemptNumber(last.key) : 0;
};

export interface PaymentWatcherOptions {
  treasury: Address;
  onPaid?: (payment: PaymentRow) => void;
  /** Runs in the credit's own transaction (a referral reward): exactly once per payment. */
  credited?: PaymentCredited;
  log?: (message: string) => void;
  /** Where a refund to one of our own wallets goes instead (default: nowhere special). */
  refundRoute?: RefundRoute;
}

/**
 * Watches the payment addresses (launch fees and key purchases alike), once per tick (`tick()`: the `payment-watch` job
 * runs it on each block). One block scan records every transfer into any address that may still get
 * money that matters; one multicall reads the balances of the payments that need a look (open,
 * or holding unsettled money). A payment is credited exactly once (a conditional UPDATE),
 * expires only once the chain has passed its window, refunds what is not owed (late, after
 * cancel, over the amount) to its sender minus gas, and sweeps the fee (only the fee, and only
 * once every refund is final) to the treasury. Every transfer goes through the transaction
 * manager under a key naming what it pays (the deposit it refunds, the payment it sweeps), so a
 * restart, a crash or a second worker can never pay anything twice.
 */
export class PaymentWatcher {
  private readonly cursors: ChainCursors;
  private readonly refundRoute: RefundRoute;

  constructor(
    private readonly payments: PaymentRepository,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext,
    private readonly txm: TxManager,
    private readonly options: PaymentWatcherOptions,
  ) {
    this.cursors = new ChainCursors(payments.db);
    this.refundRoute = options.refundRoute ?? refundToSender;
  }

  /**
   * One pass. The money is looked at before the clock: deposits are read first (each one is
   * in time or late by its block's time), a payment is credited when its in-time deposits
   * reach the amount, and it expires only once every block up to the head is read, the
   * head's time is past the window, and what arrived in time falls short. A payment mined
   * before expiry but seen after (poll lag, downtime, a restart) is credited, not refunded.
   */
  async tick(): Promise<void> {
    await this.txm.reconcile();
    const head = await this.chain.client.getBlockNumber();
    const scanned = await this.scanDeposits(head);
    const active = await this.payments.active();
    if (active.length === 0) return;
    // At the head itself: a credit knows which blocks' deposits its balance already held.
    const balances = await getBalances(this.chain.client, {
      addresses: active.map((p) => p.address as Address),
      blockNumber: head,
    });
    const deposits = await this.payments.depositsOf(active.map((p) => p.id));
    const headTime = lazy(() => this.blockTime(head));
    const depositsOf = (payment: PaymentRow) => deposits.filter((d) => d.paymentId === payment.id);
    for (const [i, payment] of active.entries()) {
      if (payment.status !== "open") continue;
      const balance = balances[i]?.bnb ?? 0n;
      await this.decide(payment, balance, depositsOf(payment), { head, scanned }, headTime);
    }
    await this.payments.setBalances(
      active.map((payment, i) => ({ payment, balance: balances[i]?.bnb ?? 0n })),
    );
    const closed = active.filter((p) => p.status !== "open");
    if (closed.length === 0) return;
    const txs = await this.txm.bySubjects(closed.map((p) => p.id));
    const gasPrice = lazy(() => this.txm.gasPrice());
    for (const payment of closed) {
      await this.settle(
        payment,
        depositsOf(payment),
        txs.filter((t) => t.subject === payment.id),
        balances[active.indexOf(payment)]?.bnb ?? 0n,
        gasPrice,
      );
    }
  }

  /**
   * open → paid when the money arrived in time, or → expired once it surely did not. A credit
   * records the block it was judged at (`paidBlock`): deposits after it go back in full.
   */
  private async decide(
    payment: PaymentRow,
    balance: bigint,
    deposits: DepositRow[],
    { head, scanned }: { head: bigint; scanned: bigint },
    headTime: () => Promise<number>,
  ): Promise<void> {
    const expiresAt = payment.expiresAt.getTime();
    const credit = creditOf({
      amount: BigInt(payment.amount),
      deposits,
      balance,
      head,
      scanned,
      windowOpen: Date.now() <= expiresAt,
    });
    if (credit) {
      if (await this.payments.markPaid(payment, credit, this.options.credited)) {
        applyCredit(deposits, credit);
        payment.status = "paid";
        this.options.onPaid?.(payment);
      }
      return;
    }
    if (Date.now() <= expiresAt || scanned <= head) return;
    // Every block that could hold an in-time deposit (block time up to expiresAt + 1 s) is read.
    if ((await headTime()) <= expiresAt + LATE_SLACK_MS) return;
    if (await this.payments.close(payment.id, "expired")) payment.status = "expired";
  }

  private async blockTime(blockNumber: bigint): Promise<number> {
    const block = await this.chain.client.getBlock({ blockNumber });
    return Number(block.timestamp) * 1000;
  }

  /** Records the transfers into watched addresses in the blocks not yet scanned. */
  private scanDeposits(head: bigint): Promise<bigint> {
    const scanner = { cursors: this.cursors, name: CURSOR, rpcUrl: this.chain.rpcUrl };
    return this.payments.scanSet().then((targets) =>
      scanNewTransfers(scanner, targets, head, async (target, transfer) => {
        const payment = await this.payments.byId(target.id);
        if (payment) await this.recordDeposit(payment, transfer);
      }),
    );
  }

  /** What of a deposit is owed back: all of it if late, the part over the amount otherwise. */
  private async recordDeposit(payment: PaymentRow, transfer: IncomingTransfer) {
    const { value, blockNumber, blockTime } = transfer;
    const earlier = await this.payments.depositsOf([payment.id]);
    if (earlier.some((d) => d.txHash === transfer.hash)) return;
    const late =
      blockTime.getTime() > payment.expiresAt.getTime() + LATE_SLACK_MS ||
      (payment.closedAt !== null && payment.status === "cancelled" && blockTime > payment.closedAt);
    const keep = keptPart({
      amount: BigInt(payment.amount),
      earlier,
      value,
      late,
      blockNumber,
      creditedAt: payment.paidBlock,
    });
    await this.payments.insertDeposit({
      txHash: transfer.hash,
      paymentId: payment.id,
      from: transfer.from,
      value: value.toString(),
      blockNumber,
      blockTime,
      refundable: (value - keep).toString(),
    });
  }

  /**
   * A closed payment's money: every deposit not owed is refunded (or held, when it came from
   * one of our own wallets), then, once every refund is final, the fee alone goes to the
   * treasury. Settled when nothing is left to do.
   */
  private async settle(
    payment: PaymentRow,
    deposits: DepositRow[],
    txs: TxSummary[],
    balance: bigint,
    gasPrice: () => Promise<bigint>,
  ): Promise<void> {
    const paid = payment.status === "paid";
    const owedOf = (d: DepositRow) => (paid ? BigInt(d.refundable) : BigInt(d.value));
    const owing = deposits.filter((d) => !d.heldReason && owedOf(d) > 0n);
    const price = owing.length > 0 || (paid && !payment.sweptAt) ? await gasPrice() : 0n;
    const gasCost = TRANSFER_GAS * price;
    const routes = await this.refundRoute(owing.map((d) => d.from));
    const intents: Array<Omit<TxIntent, "account">> = [];
    let busy = false;
    for (const deposit of owing) {
      const owed = owedOf(deposit);
      const attempts = attemptsOf(txs, refundKey(payment.id, deposit.txHash));
      const last = attempts.at(-1);
      if (attempts.some((attempt) => !isFinal(attempt.status))) {
        busy = true;
        continue;
      }
      // Any attempt, not only the last: a dropped one can land after its retry was sent.
      if (attempts.some((attempt) => attempt.status === "mined")) continue;
      if (owed <= gasCost) continue; // not worth its gas: it stays, as dust
      const route = routes.get(deposit.from.toLowerCase());
      if (route && "hold" in route) {
        await this.payments.hold(deposit.txHash, route.hold);
        continue;
      }
      if (last?.status === "reverted" || attemptsMade(attempts) >= MAX_ATTEMPTS) {
        await this.payments.hold(
          deposit.txHash,
          `its refund to ${last?.to} failed (${last?.error}); the BNB stay at the payment address`,
        );
        continue;
      }
      const reason = this.refundReason(payment, deposit);
      intents.push({
        key: refundKey(payment.id, deposit.txHash, attemptsMade(attempts) + 1),
        ...(last ? { retries: last.key } : {}),
        purpose: "payment-refund",
        ownerId: payment.ownerId,
        subject: payment.id,
        to: (route?.to ?? deposit.from) as Address,
        value: owed - gasCost,
        gas: TRANSFER_GAS,
        gasPrice: price,
        reason: route ? `${reason}; ${route.note}` : reason,
      });
      busy = true;
    }
    if (!busy && paid && !payment.sweptAt) {
      const sweep = await this.sweep(payment, deposits, txs, balance, gasCost);
      if (sweep === "busy") busy = true;
      else if (sweep) {
        intents.push(sweep);
        busy = true;
      }
    }
    if (intents.length > 0) {
      const key = await this.vault.find(payment.address, "payment");
      if (!key) {
        this.options.log?.(`payment watcher: no stored key for ${payment.address}`);
        return;
      }
      const account = keyAccount(key);
      // A retry refused for now (its earlier attempt landed late, or another transaction holds
      // its nonce) waits for the next block; the other payments go on.
      await this.txm
        .send(intents.map((intent) => ({ ...intent, account })))
        .catch((error: Error) => {
          if (!(error instanceof RetryRefused)) throw error;
          this.options.log?.(`payment watcher: payment ${payment.id}: ${error.message}`);
        });
    }
    if (!busy) await this.payments.settle(payment.id, deposits.length);
  }

  /** The fee's sweep to the treasury: the next attempt to send, "busy" while one is out, or null. */
  private async sweep(
    payment: PaymentRow,
    deposits: DepositRow[],
    txs: TxSummary[],
    balance: bigint,
    gasCost: bigint,
  ): Promise<Omit<TxIntent, "account"> | "busy" | null> {
    const attempts = attemptsOf(txs, sweepKey(payment.id));
    const last = attempts.at(-1);
    if (attempts.some((attempt) => !isFinal(attempt.status))) return "busy";
    if (attempts.some((attempt) => attempt.status === "mined")) {
      await this.payments.markSwept(payment.id);
      return null;
    }
    if (last?.status === "reverted" || attemptsMade(attempts) >= MAX_ATTEMPTS) {
      this.options.log?.(
        `payment watcher: the fee of payment ${payment.id} could not be swept (${last?.error})`,
      );
      return null;
    }
    // Only the fee: money held for others (or dust) stays where it is.
    const held = deposits
      .filter((d) => d.heldReason)
      .reduce((sum, d) => sum + BigInt(d.refundable), 0n);
    const fee = BigInt(payment.amount);
    const available = balance - held < fee ? balance - held : fee;
    if (available <= gasCost) return null;
    return {
      key: sweepKey(payment.id, attemptsMade(attempts) + 1),
      ...(last ? { retries: last.key } : {}),
      purpose: "payment-sweep",
      ownerId: payment.ownerId,
      subject: payment.id,
      to: this.options.treasury,
      value: available - gasCost,
      gas: TRANSFER_GAS,
      gasPrice: gasCost / TRANSFER_GAS,
      reason:
        payment.kind === "access_key" ? "access key price to treasury" : "launch fee to treasury",
    };
  }

  private refundReason(payment: PaymentRow, deposit: DepositRow): string {
    const what = payment.kind === "access_key" ? "key price" : "fee";
    if (payment.status === "paid")
      return BigInt(deposit.refundable) === BigInt(deposit.value)
        ? `Payment arrived after the ${what} was already paid`
        : `Paid ${formatEther(BigInt(deposit.value))} BNB, more than the ${formatEther(BigInt(payment.amount))} BNB ${what}`;
    return payment.status === "cancelled"
      ? "Payment arrived for a cancelled payment"
      : "Payment arrived after the payment window expired";
  }
}
