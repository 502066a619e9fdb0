import { getBalances } from "@bundler/chain";
import { type Address, formatEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { ChainContext } from "../../lib/chain-context.ts";
import { type IncomingTransfer, scanIncomingTransfers } from "../../lib/incoming-transfers.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import type { PaymentRow } from "./drafts.repository.ts";
import type { DepositRow, PaymentRepository } from "./payment.repository.ts";
import { PaymentSends } from "./payment-sends.ts";

const TRANSFER_GAS = 21_000n;
/** Block times are whole seconds: a deposit in the block of the window's last second is in time. */
const LATE_SLACK_MS = 1000;

/** Runs `load` at most once, on first use. */
const lazy = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  let value: Promise<T> | undefined;
  return () => {
    value ??= load();
    return value;
  };
};

/** Serialises the sending part of ticks inside one process (nonces of one wallet). */
let sendLock: Promise<unknown> = Promise.resolve();
const exclusively = <T>(run: () => Promise<T>): Promise<T> => {
  const next = sendLock.then(run, run);
  sendLock = next.catch(() => undefined);
  return next;
};

export interface PaymentWatcherOptions {
  treasury: Address;
  onPaid?: (payment: PaymentRow) => void;
  log?: (message: string) => void;
}

/**
 * Watches every open payment address with ONE batched balance read per tick (call `tick()`
 * per block, or let `start()` poll). Credits a draft exactly once (a conditional UPDATE),
 * expires late ones, refunds what is not owed (late, after cancel, over the amount) to its
 * sender minus gas, and sweeps received fees to the treasury (through PaymentSends: every
 * outgoing transfer is recorded before it is broadcast).
 */
export class PaymentWatcher {
  private timer: NodeJS.Timeout | undefined;
  private readonly sends: PaymentSends;

  constructor(
    private readonly payments: PaymentRepository,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext,
    private readonly options: PaymentWatcherOptions,
  ) {
    this.sends = new PaymentSends(payments, chain, options.log);
  }

  start(intervalMs = 1000): void {
    if (this.timer) return;
    let busy = false;
    this.timer = setInterval(() => {
      if (busy) return;
      busy = true;
      this.tick()
        .catch((error: unknown) =>
          this.options.log?.(`payment watcher: ${(error as Error).message}`),
        )
        .finally(() => {
          busy = false;
        });
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * One pass. The money is looked at before the clock: deposits are read first (each one is
   * in time or late by its block's time), a payment is credited when its in-time deposits
   * reach the amount, and it expires only once every block up to the head is read, the
   * head's time is past the window, and what arrived in time falls short. A payment mined
   * before expiry but seen after (poll lag, downtime, a restart) is credited, not refunded.
   */
  async tick(): Promise<void> {
    const watched = await this.payments.watched();
    if (watched.length === 0) return;
    await exclusively(async () => {
      await this.resumeSends();
      const head = await this.chain.client.getBlockNumber();
      await this.scanDeposits(watched, head);
      const balances = await getBalances(this.chain.client, {
        addresses: watched.map((p) => p.address as Address),
      });
      const deposits = await this.payments.depositsOf(watched.map((p) => p.id));
      const headTime = lazy(() => this.blockTime(head));
      for (const [i, payment] of watched.entries()) {
        if (payment.status !== "open") continue;
        const own = deposits.filter((d) => d.paymentId === payment.id);
        await this.decide(payment, balances[i]?.bnb ?? 0n, own, head, headTime);
      }
      await this.payments.setBalances(
        watched.map((p, i) => ({ id: p.id, balance: balances[i]?.bnb ?? 0n })),
      );
      for (const [i, payment] of watched.entries()) {
        const fresh = await this.payments.byId(payment.id);
        if (fresh && fresh.status !== "open" && (balances[i]?.bnb ?? 0n) > 0n)
          await this.settle(fresh);
      }
    });
  }

  /** open → paid when the money arrived in time, or → expired once it surely did not. */
  private async decide(
    payment: PaymentRow,
    balance: bigint,
    deposits: DepositRow[],
    head: bigint,
    headTime: () => Promise<number>,
  ): Promise<void> {
    const amount = BigInt(payment.amount);
    const kept = deposits.reduce((sum, d) => sum + BigInt(d.value) - BigInt(d.refundable), 0n);
    const owedBack = deposits.reduce((sum, d) => sum + BigInt(d.refundable), 0n);
    const expiresAt = payment.expiresAt.getTime();
    // Seen in the balance before the window closed counts as in time too: a transfer made by
    // a contract (an exchange's batch payout) is not found by the block scan.
    const inTime = kept >= amount || Date.now() <= expiresAt;
    if (inTime && balance - owedBack >= amount) {
      if (await this.payments.markPaid(payment)) {
        payment.status = "paid";
        this.options.onPaid?.(payment);
      }
      return;
    }
    if (Date.now() <= expiresAt || payment.scanFromBlock <= head) return;
    // Every block that could hold an in-time deposit (block time up to expiresAt + 1 s) is read.
    if ((await headTime()) <= expiresAt + LATE_SLACK_MS) return;
    if (await this.payments.close(payment.id, "expired")) payment.status = "expired";
  }

  private async blockTime(blockNumber: bigint): Promise<number> {
    const block = await this.chain.client.getBlock({ blockNumber });
    return Number(block.timestamp) * 1000;
  }

  /**
   * Finds the transfers into watched addresses in the blocks not yet scanned, and moves each
   * payment's `scanFromBlock` past what was read (in the database and on the rows in hand).
   */
  private async scanDeposits(watched: PaymentRow[], head: bigint): Promise<void> {
    let from = head + 1n;
    for (const payment of watched) if (payment.scanFromBlock < from) from = payment.scanFromBlock;
    const byAddress = new Map(watched.map((p) => [p.address.toLowerCase(), p]));
    const scan = await scanIncomingTransfers(
      this.chain.rpcUrl,
      new Set(byAddress.keys()),
      from,
      head,
    );
    if (scan.lastBlock < from) return;
    for (const transfer of scan.transfers) {
      const payment = byAddress.get(transfer.to);
      if (!payment || transfer.blockNumber < payment.scanFromBlock) continue;
      await this.recordDeposit(payment, transfer);
    }
    const advanced = watched.filter((p) => p.scanFromBlock <= scan.lastBlock);
    await this.payments.setScanFrom(
      advanced.map((p) => p.id),
      scan.lastBlock + 1n,
    );
    for (const payment of advanced) payment.scanFromBlock = scan.lastBlock + 1n;
  }

  /** What of a deposit is owed back: all of it if late, the part over the amount otherwise. */
  private async recordDeposit(payment: PaymentRow, transfer: IncomingTransfer) {
    const { value, blockNumber, blockTime } = transfer;
    const earlier = await this.payments.deposits(payment.id);
    const late =
      blockTime.getTime() > payment.expiresAt.getTime() + LATE_SLACK_MS ||
      (payment.closedAt !== null && payment.status === "cancelled" && blockTime > payment.closedAt);
    const counted = earlier.reduce((sum, d) => sum + BigInt(d.value) - BigInt(d.refundable), 0n);
    const owedToFee = late ? 0n : BigInt(payment.amount) - counted;
    const keep = owedToFee <= 0n ? 0n : owedToFee < value ? owedToFee : value;
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

  /** Transfers recorded but not known to be mined: ask the chain before sending anything again. */
  resumeSends(): Promise<void> {
    return this.sends.resumeSends();
  }

  /** Refunds what is not owed, then sweeps the fee of a paid payment to the treasury. */
  private async settle(payment: PaymentRow): Promise<void> {
    const key = await this.vault.find(payment.address, "payment");
    if (!key) return;
    const account = privateKeyToAccount(key);
    const gasPrice = await this.sends.gasPrice();
    const gasCost = TRANSFER_GAS * gasPrice;
    const deposits = await this.payments.deposits(payment.id);
    for (const deposit of deposits) {
      if (deposit.refundSendId) continue;
      const owed = payment.status === "paid" ? BigInt(deposit.refundable) : BigInt(deposit.value);
      if (owed <= gasCost) continue;
      const reason =
        payment.status === "paid"
          ? BigInt(deposit.refundable) === BigInt(deposit.value)
            ? "Payment arrived after the fee was already paid"
            : `Paid ${formatEther(BigInt(deposit.value))} BNB, more than the ${formatEther(BigInt(payment.amount))} BNB fee`
          : payment.status === "cancelled"
            ? "Payment arrived for a cancelled payment"
            : "Payment arrived after the payment window expired";
      const send = await this.sends.sign(
        account,
        payment,
        "refund",
        deposit.from as Address,
        owed - gasCost,
        gasPrice,
        reason,
      );
      if (!(await this.payments.claimRefund(deposit.txHash, send.id))) {
        await this.payments.setSend(send.id, {
          status: "failed",
          error: "superseded: already refunded",
        });
        continue;
      }
      await this.sends.broadcast(send);
    }
    if (payment.status !== "paid" || payment.sweptAt) return;
    const pending = (await this.payments.deposits(payment.id)).some(
      (d) => !d.refundSendId && BigInt(d.refundable) > gasCost,
    );
    if (pending) return;
    const balance = await this.chain.client.getBalance({
      address: account.address,
      blockTag: "pending",
    });
    if (balance <= gasCost) return;
    const send = await this.sends.sign(
      account,
      payment,
      "sweep",
      this.options.treasury,
      balance - gasCost,
      gasPrice,
      "launch fee to treasury",
    );
    if (!(await this.payments.claimSweep(payment.id))) {
      await this.payments.setSend(send.id, {
        status: "failed",
        error: "superseded: already swept",
      });
      return;
    }
    await this.sends.broadcast(send);
  }
}
