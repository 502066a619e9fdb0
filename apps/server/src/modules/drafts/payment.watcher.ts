import { getBalances, rpcBatch, signTransfer } from "@bundler/chain";
import { type Address, formatEther, getAddress, type Hex, keccak256 } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { ChainContext } from "../../lib/chain-context.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import type { PaymentRow, SendRow } from "./drafts.repository.ts";
import type { PaymentRepository } from "./payment.repository.ts";

/** Blocks scanned for incoming transfers per tick at most. */
const MAX_SCAN_BLOCKS = 500n;
const TRANSFER_GAS = 21_000n;

interface RpcTx {
  hash: Hex;
  from: Address;
  to: Address | null;
  value: Hex;
}
interface RpcBlock {
  number: Hex;
  timestamp: Hex;
  transactions: RpcTx[];
}

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
 * sender minus gas, and sweeps received fees to the treasury. Every outgoing transfer is
 * written (nonce, raw tx, hash) before it is broadcast; unfinished ones are checked on the
 * chain before anything is sent again.
 */
export class PaymentWatcher {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly payments: PaymentRepository,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext,
    private readonly options: PaymentWatcherOptions,
  ) {}

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

  async tick(): Promise<void> {
    const watched = await this.payments.watched();
    if (watched.length === 0) return;
    const balances = await getBalances(this.chain.client, {
      addresses: watched.map((p) => p.address as Address),
    });
    const now = Date.now();
    for (const [i, payment] of watched.entries()) {
      const balance = balances[i]?.bnb ?? 0n;
      if (payment.status !== "open") continue;
      if (payment.expiresAt.getTime() < now) {
        if (await this.payments.close(payment.id, "expired")) payment.status = "expired";
      } else if (balance >= BigInt(payment.amount)) {
        if (await this.payments.markPaid(payment)) {
          payment.status = "paid";
          this.options.onPaid?.(payment);
        }
      }
    }
    await exclusively(async () => {
      await this.resumeSends();
      const head = await this.chain.client.getBlockNumber();
      await this.scanDeposits(watched, head);
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

  /** Finds the transfers into watched addresses in the blocks not yet scanned. */
  private async scanDeposits(watched: PaymentRow[], head: bigint): Promise<void> {
    let from = head + 1n;
    for (const payment of watched) if (payment.scanFromBlock < from) from = payment.scanFromBlock;
    if (from > head) return;
    const to = from + MAX_SCAN_BLOCKS - 1n < head ? from + MAX_SCAN_BLOCKS - 1n : head;
    const numbers: bigint[] = [];
    for (let n = from; n <= to; n++) numbers.push(n);
    const blocks = await rpcBatch<RpcBlock>(
      this.chain.rpcUrl,
      numbers.map((n) => ({
        method: "eth_getBlockByNumber",
        params: [`0x${n.toString(16)}`, true],
      })),
    );
    const byAddress = new Map(watched.map((p) => [p.address.toLowerCase(), p]));
    for (const { result: block } of blocks) {
      if (!block) throw new Error("a block could not be read; the scan resumes next tick");
      for (const tx of block.transactions) {
        const payment = tx.to ? byAddress.get(tx.to.toLowerCase()) : undefined;
        const value = BigInt(tx.value);
        if (!payment || value === 0n || BigInt(block.number) < payment.scanFromBlock) continue;
        await this.recordDeposit(
          payment,
          tx,
          value,
          BigInt(block.number),
          new Date(Number(BigInt(block.timestamp)) * 1000),
        );
      }
    }
    await this.payments.setScanFrom(
      watched.filter((p) => p.scanFromBlock <= to).map((p) => p.id),
      to + 1n,
    );
  }

  /** What of a deposit is owed back: all of it if late, the part over the amount otherwise. */
  private async recordDeposit(
    payment: PaymentRow,
    tx: RpcTx,
    value: bigint,
    blockNumber: bigint,
    blockTime: Date,
  ) {
    const earlier = await this.payments.deposits(payment.id);
    const late =
      blockTime.getTime() > payment.expiresAt.getTime() + 1000 ||
      (payment.closedAt !== null && payment.status === "cancelled" && blockTime > payment.closedAt);
    const counted = earlier.reduce((sum, d) => sum + BigInt(d.value) - BigInt(d.refundable), 0n);
    const owedToFee = late ? 0n : BigInt(payment.amount) - counted;
    const keep = owedToFee <= 0n ? 0n : owedToFee < value ? owedToFee : value;
    await this.payments.insertDeposit({
      txHash: tx.hash,
      paymentId: payment.id,
      from: getAddress(tx.from),
      value: value.toString(),
      blockNumber,
      blockTime,
      refundable: (value - keep).toString(),
    });
  }

  /** Refunds what is not owed, then sweeps the fee of a paid payment to the treasury. */
  private async settle(payment: PaymentRow): Promise<void> {
    const key = await this.vault.find(payment.address, "payment");
    if (!key) return;
    const account = privateKeyToAccount(key);
    const gasPrice = await this.gasPrice();
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
      const send = await this.sign(
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
      await this.broadcast(send);
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
    const send = await this.sign(
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
    await this.broadcast(send);
  }

  private async gasPrice(): Promise<bigint> {
    const price = await this.chain.client.getGasPrice();
    const floor = this.chain.profile.gasPriceFloor;
    if (price < floor) return floor;
    return price;
  }

  /** Signs and RECORDS a transfer; nothing is broadcast yet. */
  private async sign(
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

  private async broadcast(send: SendRow): Promise<void> {
    try {
      await this.chain.client.sendRawTransaction({ serializedTransaction: send.rawTx as Hex });
    } catch (error) {
      const message = (error as Error).message;
      if (!/already known|nonce too low/i.test(message)) {
        this.options.log?.(`payment watcher: broadcast of ${send.txHash} failed: ${message}`);
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
      const receipt = await this.chain.client
        .getTransactionReceipt({ hash: send.txHash as Hex })
        .catch(() => null);
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
