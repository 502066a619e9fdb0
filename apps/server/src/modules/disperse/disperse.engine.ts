import {
  getBalances,
  HOPS_PER_CHAIN,
  type PlanDispersalReturnType,
  planDispersal,
  rpcBatch,
  signTransfer,
  TRANSFER_GAS,
  WALLETS_PER_CHAIN,
} from "@bundler/chain";
import { type Address, formatEther, type Hex, keccak256 } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { ChainContext } from "../../lib/chain-context.ts";
import { type IncomingTransfer, scanIncomingTransfers } from "../../lib/incoming-transfers.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import { lastStep, legProgress, legRoute, shorten } from "./dispersal-route.ts";
import {
  type DepositRow,
  type DispersalRow,
  type DisperseRepository,
  type LegRow,
  MOVING,
  type NewTransfer,
  type TransferRow,
} from "./disperse.repository.ts";

/** A sent transfer not mined after this long is broadcast again (a node may have dropped it). */
const REBROADCAST_AFTER_MS = 10_000;

export interface DisperseEngineOptions {
  /** A status line for the dispersal's owner (`dispersal_status_{key}`). */
  emit: (ownerId: string, message: string) => void;
  log?: (message: string) => void;
}

const bnb = (wei: bigint | string) => `${formatEther(BigInt(wei))} BNB`;

const groupBy = <T>(rows: T[], key: (row: T) => string): Map<string, T[]> => {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(key(row));
    if (list) list.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
};

/**
 * Moves every dispersal forward, once per block (`tick()`): records the deposits into
 * receivers (one batched block read), notices funding and expiry (one multicall for every
 * receiver), confirms in-flight transfers (one batched receipt read), then signs and RECORDS
 * the next transfer of every chain before broadcasting them all in one batch. Nothing is sent
 * twice: each step has a unique key, and an unfinished transfer is checked on the chain
 * before it is broadcast again. A crash anywhere leaves state the next tick finishes.
 */
export class DisperseEngine {
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly repo: DisperseRepository,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext,
    private readonly options: DisperseEngineOptions,
  ) {}

  /** One pass; a call while a pass runs shares it. */
  tick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (!this.running) {
      this.running = this.pass().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  /** No new passes; resolves when the current one is done. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => undefined);
  }

  private async pass(): Promise<void> {
    const watched = await this.repo.watched();
    if (watched.length === 0) return;
    const byId = new Map(watched.map((d) => [d.id, d]));
    const head = await this.chain.client.getBlockNumber();
    const deposits = groupBy(
      await this.repo.deposits(watched.map((d) => d.id)),
      (r) => r.dispersalId,
    );
    await this.scanDeposits(watched, head, deposits);
    const balances = await getBalances(this.chain.client, {
      addresses: watched.map((d) => d.receiver as Address),
    });
    for (const [i, d] of watched.entries()) {
      if (d.status !== "pending") continue;
      await this.checkFunding(d, balances[i]?.bnb ?? 0n, deposits.get(d.id) ?? [], head);
    }

    await this.reconcile(byId);

    const moving = watched.filter((d) => MOVING.includes(d.status));
    const transfers = groupBy(
      await this.repo.transfers(watched.map((d) => d.id)),
      (t) => t.dispersalId,
    );
    const next: NewTransfer[] = [];
    for (const d of moving) {
      const legs = await this.ensureWallets(d, await this.repo.legs(d.id));
      const own = transfers.get(d.id) ?? [];
      const plan = planOf(d, legs);
      if (await this.finalize(d, legs, own, plan)) continue;
      next.push(...this.nextSteps(d, legs, own, plan));
    }
    for (const d of watched) {
      if (d.status === "pending") continue;
      next.push(...this.refunds(d, deposits.get(d.id) ?? [], transfers.get(d.id) ?? []));
    }
    await this.send(next, transfers, byId);
  }

  /**
   * Records transfers into receivers (added to `deposits` too) and moves each dispersal's
   * `scanFromBlock` past what was read, in the database and on the rows in hand.
   */
  private async scanDeposits(
    watched: DispersalRow[],
    head: bigint,
    deposits: Map<string, DepositRow[]>,
  ): Promise<void> {
    let from = head + 1n;
    for (const d of watched) if (d.scanFromBlock < from) from = d.scanFromBlock;
    const byReceiver = new Map(watched.map((d) => [d.receiver.toLowerCase(), d]));
    const scan = await scanIncomingTransfers(
      this.chain.rpcUrl,
      new Set(byReceiver.keys()),
      from,
      head,
    );
    if (scan.lastBlock < from) return;
    for (const transfer of scan.transfers) {
      const d = byReceiver.get(transfer.to);
      if (!d || transfer.blockNumber < d.scanFromBlock) continue;
      const list = deposits.get(d.id) ?? [];
      if (list.some((r) => r.txHash === transfer.hash)) continue;
      const row = this.depositRow(d, transfer, list);
      await this.repo.insertDeposit(row);
      list.push(row);
      deposits.set(d.id, list);
    }
    const advanced = watched.filter((d) => d.scanFromBlock <= scan.lastBlock);
    await this.repo.setScanFrom(
      advanced.map((d) => d.id),
      scan.lastBlock + 1n,
    );
    for (const d of advanced) d.scanFromBlock = scan.lastBlock + 1n;
  }

  /** What of a deposit the dispersal keeps: the part that completes its amount, in time. */
  private depositRow(d: DispersalRow, transfer: IncomingTransfer, earlier: DepositRow[]) {
    const late =
      transfer.blockTime.getTime() > d.expiresAt.getTime() + 1000 ||
      (d.status === "cancelled" && d.closedAt !== null && transfer.blockTime > d.closedAt);
    const kept = earlier.reduce((sum, r) => sum + BigInt(r.value) - BigInt(r.refundable), 0n);
    const owed = late ? 0n : BigInt(d.amount) - kept;
    const keep = owed <= 0n ? 0n : owed < transfer.value ? owed : transfer.value;
    return {
      txHash: transfer.hash,
      dispersalId: d.id,
      from: transfer.from,
      value: transfer.value.toString(),
      blockNumber: transfer.blockNumber,
      blockTime: transfer.blockTime,
      refundable: (transfer.value - keep).toString(),
    };
  }

  /** pending → sending when paid in time (the funder is who paid most), or → expired. */
  private async checkFunding(
    d: DispersalRow,
    balance: bigint,
    deposits: DepositRow[],
    head: bigint,
  ): Promise<void> {
    const kept = deposits.map((r) => ({
      from: r.from,
      kept: BigInt(r.value) - BigInt(r.refundable),
    }));
    const total = kept.reduce((sum, r) => sum + r.kept, 0n);
    const amount = BigInt(d.amount);
    if (total >= amount && balance >= amount) {
      const funder = kept.reduce((best, r) => (r.kept > best.kept ? r : best)).from;
      if (
        await this.repo.transition(d.id, ["pending"], "sending", { fundedAt: new Date(), funder })
      ) {
        d.status = "sending";
        d.funder = funder;
        this.options.emit(
          d.ownerId,
          `Received ${bnb(amount)} from ${funder}; sending to ${d.antiBubblemaps ? "every chain" : "every wallet"}...`,
        );
      }
      return;
    }
    // Expire only once every block up to the head has been scanned: a payment made in time counts.
    if (Date.now() > d.expiresAt.getTime() && d.scanFromBlock > head) {
      if (await this.repo.transition(d.id, ["pending"], "expired", { closedAt: new Date() })) {
        d.status = "expired";
        this.options.emit(
          d.ownerId,
          deposits.length > 0
            ? "Dispersal expired before it was fully funded; what arrived is being refunded"
            : "Dispersal expired before it was funded",
        );
      }
    }
  }

  /** Every chain's intermediate wallets exist, their keys stored, before its first transfer. */
  private async ensureWallets(d: DispersalRow, legs: LegRow[]): Promise<LegRow[]> {
    if (!d.antiBubblemaps || legs.every((leg) => leg.wallets)) return legs;
    const keys = legs.map(() =>
      Array.from({ length: WALLETS_PER_CHAIN }, () => generatePrivateKey()),
    );
    const stored = await this.vault.store(
      keys.flat().map((privateKey) => ({ privateKey, purpose: "dispersal" as const })),
      { ownerId: d.ownerId },
    );
    const wallets = legs.map((_, i) =>
      stored
        .slice(i * WALLETS_PER_CHAIN, (i + 1) * WALLETS_PER_CHAIN)
        .map((s) => s.address as string),
    );
    await this.repo.setLegWallets(d.id, wallets);
    return legs.map((leg, i) => ({ ...leg, wallets: wallets[i] ?? null }));
  }

  /** The next transfer of every chain whose previous one is confirmed. */
  private nextSteps(
    d: DispersalRow,
    legs: LegRow[],
    transfers: TransferRow[],
    plan: PlanDispersalReturnType,
  ): NewTransfer[] {
    const fee = TRANSFER_GAS * BigInt(d.gasPrice);
    const byLeg = groupBy(
      transfers.filter((t) => t.leg !== null),
      (t) => String(t.leg),
    );
    const next: NewTransfer[] = [];
    for (const leg of legs) {
      const values = plan.legs[leg.index]?.transfers ?? [];
      const route = legRoute(d.receiver, leg);
      const own = byLeg.get(String(leg.index)) ?? [];
      const hops = own
        .filter((t) => t.kind === "hop")
        .sort((a, b) => (a.step ?? 0) - (b.step ?? 0));
      const last = hops.at(-1);
      if (!last || (last.status === "confirmed" && (last.step ?? 0) < values.length - 1)) {
        const step = last ? (last.step ?? 0) + 1 : 0;
        next.push(
          this.unsigned(d, {
            kind: "hop",
            leg: leg.index,
            step,
            stepKey: `${leg.index}:${step}`,
            from: route[step] as string,
            to: route[step + 1] as string,
            value: (values[step] ?? 0n).toString(),
            reason: null,
          }),
        );
      } else if (last.status === "failed" && !own.some((t) => t.kind === "return") && d.funder) {
        // The failed transfer paid its gas; its sender still holds the value it was to send.
        const held = values[last.step ?? 0] ?? 0n;
        if (held > fee) {
          next.push(
            this.unsigned(d, {
              kind: "return",
              leg: leg.index,
              step: null,
              stepKey: `${leg.index}:return`,
              from: last.from,
              to: d.funder,
              value: (held - fee).toString(),
              reason: `Chain ${leg.index + 1} could not deliver to ${leg.destination}`,
            }),
          );
        }
      }
    }
    return next;
  }

  /** Deposits not owed to the dispersal go back to their senders, minus the refund's gas. */
  private refunds(
    d: DispersalRow,
    deposits: DepositRow[],
    transfers: TransferRow[],
  ): NewTransfer[] {
    const fee = TRANSFER_GAS * BigInt(d.gasPrice);
    const closedUnfunded = d.status === "expired" || d.status === "cancelled";
    const refunded = new Set(transfers.filter((t) => t.kind === "refund").map((t) => t.stepKey));
    const next: NewTransfer[] = [];
    for (const deposit of deposits) {
      const owed = closedUnfunded ? BigInt(deposit.value) : BigInt(deposit.refundable);
      const stepKey = `refund:${deposit.txHash}`;
      if (owed <= fee || refunded.has(stepKey)) continue;
      const reason =
        d.status === "expired"
          ? "Payment for a dispersal that expired before it was funded"
          : d.status === "cancelled"
            ? "Payment for a cancelled dispersal"
            : owed === BigInt(deposit.value)
              ? "Payment arrived after the dispersal was already funded or closed"
              : `Paid ${bnb(deposit.value)}, more than the ${bnb(d.amount)} asked`;
      next.push(
        this.unsigned(d, {
          kind: "refund",
          leg: null,
          step: null,
          stepKey,
          from: d.receiver,
          to: deposit.from,
          value: (owed - fee).toString(),
          reason,
        }),
      );
    }
    return next;
  }

  private unsigned(
    d: DispersalRow,
    t: Pick<NewTransfer, "kind" | "leg" | "step" | "stepKey" | "from" | "to" | "value" | "reason">,
  ): NewTransfer {
    return { ...t, dispersalId: d.id, nonce: -1, rawTx: "", txHash: "" };
  }

  /**
   * Gives each transfer its nonce (the wallet's next after everything recorded from it: these
   * keys are ours alone), signs it, records it, and only then broadcasts, all in one batch.
   */
  private async send(
    next: NewTransfer[],
    recorded: Map<string, TransferRow[]>,
    dispersals: Map<string, DispersalRow>,
  ): Promise<void> {
    if (next.length === 0) return;
    const nextNonce = new Map<string, number>();
    const inFlight = new Map<string, number>();
    for (const list of recorded.values()) {
      for (const t of list) {
        const from = t.from.toLowerCase();
        nextNonce.set(from, Math.max(nextNonce.get(from) ?? 0, t.nonce + 1));
        if (t.status === "signed" || t.status === "sent")
          inFlight.set(from, (inFlight.get(from) ?? 0) + 1);
      }
    }
    // Node pools hold only so many pending transactions per sender: past the profile's limit,
    // a direct dispersal's receiver pays the rest in the next blocks.
    const limit = this.chain.profile.maxPendingPerSender;
    const allowed = next.filter((t) => {
      const from = t.from.toLowerCase();
      const count = inFlight.get(from) ?? 0;
      if (count >= limit) return false;
      inFlight.set(from, count + 1);
      return true;
    });
    const keys = await this.vault.findMany([...new Set(allowed.map((t) => t.from))], "dispersal");
    const signed: NewTransfer[] = [];
    for (const t of allowed) {
      const key = keys.get(t.from.toLowerCase());
      if (!key) {
        this.options.log?.(`disperser: no stored key for ${t.from}; transfer skipped`);
        continue;
      }
      const from = t.from.toLowerCase();
      const nonce = nextNonce.get(from) ?? 0;
      nextNonce.set(from, nonce + 1);
      const gasPrice = BigInt(dispersals.get(t.dispersalId)?.gasPrice ?? 0n);
      const rawTx = await signTransfer({
        account: privateKeyToAccount(key),
        chainId: this.chain.chainId,
        to: t.to as Address,
        value: BigInt(t.value),
        nonce,
        gasPrice,
      });
      signed.push({ ...t, nonce, rawTx, txHash: keccak256(rawTx) });
    }
    const rows = await this.repo.insertTransfers(signed);
    await this.broadcast(rows);
  }

  /** Broadcasts recorded transfers in one batch; what the node refuses is decided next tick. */
  private async broadcast(rows: TransferRow[]): Promise<void> {
    if (rows.length === 0) return;
    const answers = await rpcBatch<Hex>(
      this.chain.rpcUrl,
      rows.map((t) => ({ method: "eth_sendRawTransaction", params: [t.rawTx] })),
    );
    const accepted: string[] = [];
    for (const [i, answer] of answers.entries()) {
      const row = rows[i] as TransferRow;
      if (!answer.error || /already known/i.test(answer.error.message)) accepted.push(row.id);
      else
        this.options.log?.(`disperser: broadcast of ${row.txHash} failed: ${answer.error.message}`);
    }
    await this.repo.setTransfers(accepted, { status: "sent" });
  }

  /** Settles unfinished transfers from their receipts (one batch); rebroadcasts the unmined. */
  private async reconcile(watched: Map<string, DispersalRow>): Promise<void> {
    const open = await this.repo.unfinishedTransfers();
    if (open.length === 0) return;
    const receipts = await rpcBatch<{ status: Hex; blockNumber: Hex } | null>(
      this.chain.rpcUrl,
      open.map((t) => ({ method: "eth_getTransactionReceipt", params: [t.txHash] })),
    );
    const unmined: TransferRow[] = [];
    // One UPDATE per outcome and block, not one per transfer.
    const mined = new Map<string, { ok: boolean; block: bigint; ids: string[] }>();
    for (const [i, answer] of receipts.entries()) {
      const t = open[i] as TransferRow;
      const receipt = answer.result;
      if (!receipt) {
        if (t.status === "signed" || Date.now() - t.updatedAt.getTime() > REBROADCAST_AFTER_MS)
          unmined.push(t);
        continue;
      }
      const ok = receipt.status === "0x1";
      const group = `${ok}:${receipt.blockNumber}`;
      const entry = mined.get(group) ?? { ok, block: BigInt(receipt.blockNumber), ids: [] };
      entry.ids.push(t.id);
      mined.set(group, entry);
      const d = watched.get(t.dispersalId) ?? (await this.repo.byId(t.dispersalId));
      if (d) this.options.emit(d.ownerId, this.describe(d, t, ok));
    }
    for (const { ok, block, ids } of mined.values()) {
      await this.repo.setTransfers(ids, {
        status: ok ? "confirmed" : "failed",
        error: ok ? null : "the transfer reverted",
        blockNumber: block,
      });
    }
    if (unmined.length === 0) return;
    const answers = await rpcBatch<Hex>(
      this.chain.rpcUrl,
      unmined.map((t) => ({ method: "eth_sendRawTransaction", params: [t.rawTx] })),
    );
    const sent: string[] = [];
    for (const [i, answer] of answers.entries()) {
      const t = unmined[i] as TransferRow;
      const message = answer.error?.message ?? "";
      // "nonce too low" with no receipt yet: these keys sign only recorded transfers, so the
      // nonce was taken by this very transaction and its receipt is late (a node behind
      // another). Never call it failed: that would pay its value a second time.
      if (!answer.error || /already known|nonce too low/i.test(message)) sent.push(t.id);
      else this.options.log?.(`disperser: rebroadcast of ${t.txHash} failed: ${message}`);
    }
    await this.repo.setTransfers(sent, { status: "sent" });
  }

  /** The status line for a mined transfer; every line names its full transaction hash. */
  private describe(d: DispersalRow, t: TransferRow, ok: boolean): string {
    const chain = `Chain ${(t.leg ?? 0) + 1}`;
    const value = bnb(t.value);
    if (t.kind === "refund")
      return ok
        ? `Refunded ${value} to ${t.to}: ${t.reason} (tx ${t.txHash})`
        : `Refund of ${value} to ${t.to} failed (tx ${t.txHash})`;
    if (t.kind === "return")
      return ok
        ? `${chain}: returned ${value} to the funder ${t.to} (tx ${t.txHash})`
        : `${chain}: returning ${value} to ${t.to} failed (tx ${t.txHash})`;
    if (!ok)
      return `${chain}: the transfer to ${t.to} failed; its BNB go back to the funder (tx ${t.txHash})`;
    const step = t.step ?? 0;
    if (step === lastStep(d.antiBubblemaps))
      return d.antiBubblemaps
        ? `${chain}: delivered ${value} to ${t.to} (tx ${t.txHash})`
        : `Sent ${value} to ${t.to} (tx ${t.txHash})`;
    if (step === 0) return `${chain}: funded its first wallet ${shorten(t.to)} (tx ${t.txHash})`;
    return `${chain}: hop ${step}/${HOPS_PER_CHAIN} to ${shorten(t.to)} (tx ${t.txHash})`;
  }

  /**
   * sending → processing once a first transfer is mined; → completed, partial or failed once
   * every chain delivered or gave its money back. True when the dispersal is finished.
   */
  private async finalize(
    d: DispersalRow,
    legs: LegRow[],
    transfers: TransferRow[],
    plan: PlanDispersalReturnType,
  ): Promise<boolean> {
    const fee = TRANSFER_GAS * BigInt(d.gasPrice);
    let returned = 0n;
    /** What a failed chain could not give back, and the wallet that holds it. */
    const stranded: { wallet: string; value: bigint }[] = [];
    const settled = legs.map((leg) => {
      const progress = legProgress(d.antiBubblemaps, leg.index, transfers);
      if (progress.delivered) return "delivered";
      if (progress.failedStep === null) return "active";
      const held = plan.legs[leg.index]?.transfers[progress.failedStep] ?? 0n;
      const returnDue = held > fee && d.funder !== null;
      const back = progress.returned;
      if (returnDue && back?.status !== "confirmed" && back?.status !== "failed") return "active";
      if (back?.status === "confirmed") returned += BigInt(back.value);
      else if (held > 0n) {
        // A failed return paid its gas too; a return not worth its gas was never sent.
        const wallet = legRoute(d.receiver, leg)[progress.failedStep] ?? d.receiver;
        stranded.push({ wallet, value: back ? held - fee : held });
      }
      return "failed";
    });
    if (
      d.status === "sending" &&
      transfers.some((t) => t.kind === "hop" && t.status === "confirmed")
    ) {
      if (await this.repo.transition(d.id, ["sending"], "processing")) d.status = "processing";
    }
    if (settled.includes("active")) return false;
    const delivered = settled.filter((state) => state === "delivered").length;
    const status = delivered === legs.length ? "completed" : delivered > 0 ? "partial" : "failed";
    if (await this.repo.transition(d.id, MOVING, status, { closedAt: new Date() })) {
      d.status = status;
      const unit = d.antiBubblemaps ? "chains" : "wallets";
      const back = returned > 0n ? `; ${bnb(returned)} went back to the funder ${d.funder}` : "";
      this.options.emit(
        d.ownerId,
        status === "completed"
          ? `Dispersal completed: ${delivered}/${legs.length} ${unit} delivered`
          : status === "partial"
            ? `Dispersal partially completed: ${delivered}/${legs.length} ${unit} delivered${back}`
            : `Dispersal failed: nothing could be delivered${back}`,
      );
      for (const { wallet, value } of stranded) {
        const line = `${bnb(value)} could not be returned and stays in ${wallet} (its key is stored)`;
        this.options.emit(d.ownerId, line);
        this.options.log?.(`disperser: dispersal ${d.id}: ${line}`);
      }
    }
    return true;
  }
}

/** The exact values of every transfer (deterministic from the stored amounts and gas price). */
const planOf = (d: DispersalRow, legs: LegRow[]) =>
  planDispersal({
    destinations: legs.map((leg) => ({
      address: leg.destination as Address,
      amount: BigInt(leg.amount),
    })),
    antiBubblemaps: d.antiBubblemaps,
    gasPrice: BigInt(d.gasPrice),
  });
