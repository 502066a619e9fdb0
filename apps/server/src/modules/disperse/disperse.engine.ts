import {
  getBalances,
  HOPS_PER_CHAIN,
  keyAccount,
  type PlanDispersalReturnType,
  planDispersal,
  TRANSFER_GAS,
} from "@bundler/chain";
import { type Address, formatEther } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import { ChainCursors } from "../../lib/chain-cursors.ts";
import { applyCredit, type Credit, creditOf, keptPart } from "../../lib/deposit-credit.ts";
import { type IncomingTransfer, scanNewTransfers } from "../../lib/incoming-transfers.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import { type RefundRoute, refundToSender } from "../../lib/refund-route.ts";
import type { TxRow } from "../transactions/transactions.repository.ts";
import type { TxManager } from "../transactions/tx-manager.ts";
import {
  lastStep,
  legProgress,
  legRoute,
  newLegWallets,
  returnable,
  shorten,
} from "./dispersal-route.ts";
import {
  purposeOf,
  type TransferRow,
  type TransferStep,
  toTransfer,
  toTransfers,
  transferKey,
} from "./dispersal-transfers.ts";
import {
  type DepositRow,
  type DispersalRow,
  type DisperseRepository,
  type LegRow,
  MOVING,
} from "./disperse.repository.ts";

const CURSOR = "dispersals";
/**
 * Transfers of a chain signed ahead of the one in flight: a pass that takes longer than a
 * block (a thousand chains) still finds each chain's next hops ready for the reconcile.
 */
const SIGNED_AHEAD = 2;
/** Transfers handed to the transaction manager at once (one insert, one lock per sender). */
const SEND_BATCH = 1000;

export interface DisperseEngineOptions {
  /** A status line for the dispersal's owner (`dispersal_status_{key}`). */
  emit: (ownerId: string, message: string) => void;
  log?: (message: string) => void;
  /** Where a refund to one of our own wallets goes instead (default: nowhere special). */
  refundRoute?: RefundRoute;
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
 * receivers (one batched block read), notices funding and expiry (one multicall for the
 * receivers waiting for funding), then hands the next transfer of every chain to the
 * transaction manager, which records each under its step's key before broadcasting them all
 * in one batch and reconciles them against receipts. Nothing is sent twice: each step has a
 * unique key. A crash anywhere leaves state the next tick finishes.
 */
export class DisperseEngine {
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly cursors: ChainCursors;
  private readonly refundRoute: RefundRoute;

  constructor(
    private readonly repo: DisperseRepository,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext,
    private readonly txm: TxManager,
    private readonly options: DisperseEngineOptions,
  ) {
    this.cursors = new ChainCursors(repo.db);
    this.refundRoute = options.refundRoute ?? refundToSender;
    // Every transfer that ends, whichever process's reconcile saw it, is told to its owner.
    txm.onFinal((rows) => this.announce(rows));
  }

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
    // The reconcile writes transaction rows; the funding checks write deposits and dispersal
    // rows: they run at once (a pass of 1,000 hops has about a second), and what follows reads
    // both. Neither is left running when the pass ends, even when the other fails.
    const [reconciled, funding] = await Promise.allSettled([
      this.txm.reconcile(),
      this.fundingChecks(),
    ]);
    if (reconciled.status === "rejected") throw reconciled.reason;
    if (funding.status === "rejected") throw funding.reason;
    if (!funding.value) return;
    const { active, deposits } = funding.value;
    const byId = new Map(active.map((d) => [d.id, d]));

    const moving = active.filter((d) => MOVING.includes(d.status));
    const transfers = groupBy(
      toTransfers(await this.txm.latestStepsBySubjects(active.map((d) => d.id))),
      (t) => t.dispersalId,
    );
    const next: Array<TransferStep & { dispersal: DispersalRow }> = [];
    for (const d of moving) {
      const legs = await this.ensureWallets(d, await this.repo.legs(d.id));
      const own = transfers.get(d.id) ?? [];
      const plan = planOf(d, legs);
      if (await this.finalize(d, legs, own, plan)) continue;
      next.push(...this.nextSteps(d, legs, own, plan).map((t) => ({ ...t, dispersal: d })));
    }
    for (const d of active) {
      if (d.status === "pending") continue;
      const own = transfers.get(d.id) ?? [];
      const refunds = await this.refunds(d, deposits.get(d.id) ?? [], own);
      next.push(...refunds.map((t) => ({ ...t, dispersal: d })));
      const busy = own.some((t) => t.status === "signed" || t.status === "sent");
      if (!MOVING.includes(d.status) && refunds.length === 0 && !busy)
        await this.repo.settle(d.id, (deposits.get(d.id) ?? []).length);
    }
    await this.send(next, transfers, byId);
  }

  /**
   * Records the deposits in the blocks not yet scanned, then funds or expires the dispersals
   * waiting for funding. Answers the dispersals still open and their deposits (null: none).
   */
  private async fundingChecks() {
    const head = await this.chain.client.getBlockNumber();
    const scanned = await this.scanDeposits(head);
    const active = await this.repo.active();
    if (active.length === 0) return null;
    const deposits = groupBy(
      await this.repo.deposits(active.map((d) => d.id)),
      (r) => r.dispersalId,
    );
    const pending = active.filter((d) => d.status === "pending");
    if (pending.length > 0) {
      // At the head itself: a funding knows which blocks' deposits its balance already held.
      const balances = await getBalances(this.chain.client, {
        addresses: pending.map((d) => d.receiver as Address),
        blockNumber: head,
      });
      for (const [i, d] of pending.entries())
        await this.checkFunding(d, balances[i]?.bnb ?? 0n, deposits.get(d.id) ?? [], {
          head,
          scanned,
        });
    }
    return { active, deposits };
  }

  /** Records the transfers into receivers in the blocks not yet scanned. */
  private async scanDeposits(head: bigint): Promise<bigint> {
    const scanner = { cursors: this.cursors, name: CURSOR, rpcUrl: this.chain.rpcUrl };
    const targets = (await this.repo.scanSet()).map((t) => ({ ...t, address: t.receiver }));
    return scanNewTransfers(scanner, targets, head, async (target, transfer) => {
      const d = await this.repo.byId(target.id);
      if (!d) return;
      const earlier = await this.repo.deposits([d.id]);
      if (earlier.some((r) => r.txHash === transfer.hash)) return;
      await this.repo.insertDeposit(this.depositRow(d, transfer, earlier));
    });
  }

  /** What of a deposit the dispersal keeps: the part that completes its amount, in time. */
  private depositRow(d: DispersalRow, transfer: IncomingTransfer, earlier: DepositRow[]) {
    const late =
      transfer.blockTime.getTime() > d.expiresAt.getTime() + 1000 ||
      (d.status === "cancelled" && d.closedAt !== null && transfer.blockTime > d.closedAt);
    const keep = keptPart({
      amount: BigInt(d.amount),
      earlier,
      value: transfer.value,
      late,
      blockNumber: transfer.blockNumber,
      creditedAt: d.fundedBlock,
    });
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

  /**
   * pending → sending when paid in time (the funder is who paid most), or → expired. As with a
   * payment, money the balance shows before the window closes counts as in time even when the
   * block scan found no transfer for it: a contract's internal transfer (an exchange's batch
   * payout) is not a transaction of the block. Such money has no sender we know, so it has no
   * funder: what cannot be delivered then stays in a wallet whose key is stored.
   */
  /** Who paid most of what the funding keeps; null when the balance alone funded it. */
  private funderOf(deposits: DepositRow[], credit: Credit): string | null {
    const refundable = new Map(credit.refundable.map((r) => [r.txHash, r.refundable]));
    let funder: string | null = null;
    let most = 0n;
    for (const r of deposits) {
      const kept = BigInt(r.value) - BigInt(refundable.get(r.txHash) ?? r.refundable);
      if (kept > most) [funder, most] = [r.from, kept];
    }
    return funder;
  }

  private async checkFunding(
    d: DispersalRow,
    balance: bigint,
    deposits: DepositRow[],
    { head, scanned }: { head: bigint; scanned: bigint },
  ): Promise<void> {
    const amount = BigInt(d.amount);
    const credit = creditOf({
      amount,
      deposits,
      balance,
      head,
      scanned,
      windowOpen: Date.now() <= d.expiresAt.getTime(),
    });
    if (credit) {
      const funder = this.funderOf(deposits, credit);
      if (await this.repo.fund(d.id, credit, funder)) {
        applyCredit(deposits, credit);
        d.status = "sending";
        d.funder = funder;
        this.options.emit(
          d.ownerId,
          `Received ${bnb(amount)}${funder ? ` from ${funder}` : ""}; sending to ${d.antiBubblemaps ? "every chain" : "every wallet"}...`,
        );
      }
      return;
    }
    const fullyScanned = scanned > head;
    // Expire only once every block up to the head has been scanned: a payment made in time counts.
    if (Date.now() > d.expiresAt.getTime() && fullyScanned) {
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

  /**
   * Every chain's intermediate wallets exist, their keys stored, before its first transfer
   * (a dispersal gets them when it is created; one created before that got them here).
   */
  private async ensureWallets(d: DispersalRow, legs: LegRow[]): Promise<LegRow[]> {
    if (!d.antiBubblemaps || legs.every((leg) => leg.wallets)) return legs;
    const stored = await this.repo.setLegWallets(
      d.id,
      await newLegWallets(this.vault, legs.length, d.ownerId),
    );
    return legs.map((leg) => ({ ...leg, wallets: stored[leg.index] ?? null }));
  }

  /**
   * Each chain's next transfers, signed ahead (up to SIGNED_AHEAD past the one in flight),
   * each waiting for the one before it: the transaction manager's reconcile broadcasts each
   * as soon as it sees the one before it mined, so a chain moves a hop a block however long a
   * disperser pass takes. A chain that failed sends its money back.
   */
  private nextSteps(
    d: DispersalRow,
    legs: LegRow[],
    transfers: TransferRow[],
    plan: PlanDispersalReturnType,
  ): TransferStep[] {
    const fee = TRANSFER_GAS * BigInt(d.gasPrice);
    const byLeg = groupBy(
      transfers.filter((t) => t.leg !== null),
      (t) => String(t.leg),
    );
    const next: TransferStep[] = [];
    for (const leg of legs) {
      const values = plan.legs[leg.index]?.transfers ?? [];
      const route = legRoute(d.receiver, leg);
      const own = byLeg.get(String(leg.index)) ?? [];
      const hops = own
        .filter((t) => t.kind === "hop")
        .sort((a, b) => (a.step ?? 0) - (b.step ?? 0));
      const last = hops.at(-1);
      // The first failed hop holds the chain's money; the ones after it never got any.
      const failed = hops.find((t) => t.status === "failed");
      if (failed) {
        if (own.some((t) => t.kind === "return") || !d.funder) continue;
        // What the failed transfer's sender still holds: its value, and its gas too when it
        // never ran (dropped); the return pays its own gas out of that.
        const held = returnable(failed, values[failed.step ?? 0] ?? 0n, fee);
        if (held > fee) {
          next.push({
            kind: "return",
            leg: leg.index,
            step: null,
            stepKey: `${leg.index}:return`,
            from: failed.from,
            to: d.funder,
            value: held - fee,
            reason: `Chain ${leg.index + 1} could not deliver to ${leg.destination}: ${failed.error ?? "the transfer failed"}`,
          });
        }
      } else {
        const first = last ? (last.step ?? 0) + 1 : 0;
        const open = hops.filter((t) => t.status === "signed" || t.status === "sent").length;
        const end = Math.min(values.length, first + SIGNED_AHEAD + 1 - open);
        for (let step = first; step < end; step++)
          next.push({
            kind: "hop",
            leg: leg.index,
            step,
            stepKey: `${leg.index}:${step}`,
            from: route[step] as string,
            to: route[step + 1] as string,
            value: values[step] ?? 0n,
            reason: null,
            after:
              step > first
                ? `${leg.index}:${step - 1}`
                : last && last.status !== "confirmed"
                  ? last.stepKey
                  : undefined,
          });
      }
    }
    return next;
  }

  /**
   * Deposits not owed to the dispersal go back to their senders, minus the refund's gas; one
   * that came from one of our own wallets goes to that wallet's funder, or is held.
   */
  private async refunds(
    d: DispersalRow,
    deposits: DepositRow[],
    transfers: TransferRow[],
  ): Promise<TransferStep[]> {
    const fee = TRANSFER_GAS * BigInt(d.gasPrice);
    const closedUnfunded = d.status === "expired" || d.status === "cancelled";
    const refunded = new Set(transfers.filter((t) => t.kind === "refund").map((t) => t.stepKey));
    const owing = deposits.filter((deposit) => {
      const owed = closedUnfunded ? BigInt(deposit.value) : BigInt(deposit.refundable);
      return owed > fee && !deposit.heldReason && !refunded.has(`refund:${deposit.txHash}`);
    });
    if (owing.length === 0) return [];
    const routes = await this.refundRoute(owing.map((deposit) => deposit.from));
    const next: TransferStep[] = [];
    for (const deposit of owing) {
      const owed = closedUnfunded ? BigInt(deposit.value) : BigInt(deposit.refundable);
      const route = routes.get(deposit.from.toLowerCase());
      if (route && "hold" in route) {
        await this.repo.hold(deposit.txHash, route.hold);
        this.options.emit(
          d.ownerId,
          `${bnb(owed)} from ${deposit.from} is held at ${d.receiver}: ${route.hold}`,
        );
        continue;
      }
      const reason =
        d.status === "expired"
          ? "Payment for a dispersal that expired before it was funded"
          : d.status === "cancelled"
            ? "Payment for a cancelled dispersal"
            : owed === BigInt(deposit.value)
              ? "Payment arrived after the dispersal was already funded or closed"
              : `Paid ${bnb(deposit.value)}, more than the ${bnb(d.amount)} asked`;
      next.push({
        kind: "refund",
        leg: null,
        step: null,
        stepKey: `refund:${deposit.txHash}`,
        from: d.receiver,
        to: route?.to ?? deposit.from,
        value: owed - fee,
        reason: route ? `${reason}; ${route.note}` : reason,
      });
    }
    return next;
  }

  /**
   * Hands every next transfer to the transaction manager (keyed by its step, so a step is
   * never sent twice), at the dispersal's planned gas price; node pools hold only so many
   * pending transactions per sender, so past the profile's limit a sender's transfers wait
   * for the next blocks.
   */
  private async send(
    next: Array<TransferStep & { dispersal: DispersalRow }>,
    recorded: Map<string, TransferRow[]>,
    dispersals: Map<string, DispersalRow>,
  ): Promise<void> {
    if (next.length === 0) return;
    const inFlight = new Map<string, number>();
    for (const list of recorded.values())
      for (const t of list)
        if (t.status === "signed" || t.status === "sent") {
          const from = t.from.toLowerCase();
          inFlight.set(from, (inFlight.get(from) ?? 0) + 1);
        }
    const limit = this.chain.profile.maxPendingPerSender;
    const allowed = next.filter((t) => {
      const from = t.from.toLowerCase();
      const count = inFlight.get(from) ?? 0;
      if (count >= limit) return false;
      inFlight.set(from, count + 1);
      return true;
    });
    const keys = await this.vault.findMany([...new Set(allowed.map((t) => t.from))], "dispersal");
    // A transfer left for a later pass takes the ones signed to wait for it along.
    const allowedKeys = new Set(allowed.map((t) => transferKey(t.dispersal.id, t.stepKey)));
    const skipped = new Set<string>();
    const intents = next.flatMap((t) => {
      const own = transferKey(t.dispersal.id, t.stepKey);
      const after = t.after ? transferKey(t.dispersal.id, t.after) : undefined;
      if (!allowedKeys.has(own) || (after && skipped.has(after))) {
        skipped.add(own);
        return [];
      }
      const key = keys.get(t.from.toLowerCase());
      if (!key) {
        skipped.add(own);
        this.options.log?.(`disperser: no stored key for ${t.from}; transfer skipped`);
        return [];
      }
      const d = dispersals.get(t.dispersal.id) ?? t.dispersal;
      return [
        {
          key: transferKey(d.id, t.stepKey),
          purpose: purposeOf(t.kind),
          ownerId: d.ownerId,
          subject: d.id,
          // The vault row names the address: no key derivation per hop, a thousand a block.
          account: keyAccount(key, t.from as Address),
          to: t.to as Address,
          value: t.value,
          gas: TRANSFER_GAS,
          gasPrice: BigInt(d.gasPrice),
          reason: t.reason,
          ...(after ? { after } : {}),
        },
      ];
    });
    // In parts (each one database transaction, one lock per sender): a chain's transfers
    // follow one another, so each waits for one recorded before it.
    for (let i = 0; i < intents.length; i += SEND_BATCH)
      await this.txm.send(intents.slice(i, i + SEND_BATCH));
  }

  /** Tells each finished transfer's owner what happened, in the dispersal's words. */
  private async announce(rows: TxRow[]): Promise<void> {
    // A batch of a thousand transfers belongs to a few dispersals: each is read once.
    const dispersals = new Map<string, Promise<DispersalRow | undefined>>();
    for (const row of rows) {
      const t = toTransfer(row);
      if (!t) continue;
      if (!dispersals.has(t.dispersalId))
        dispersals.set(t.dispersalId, this.repo.byId(t.dispersalId));
      const d = await dispersals.get(t.dispersalId);
      if (d) this.options.emit(d.ownerId, this.describe(d, t, t.status === "confirmed"));
    }
  }

  /** The status line for a mined transfer; every line names its full transaction hash. */
  private describe(d: DispersalRow, t: TransferRow, ok: boolean): string {
    const chain = `Chain ${(t.leg ?? 0) + 1}`;
    const value = bnb(t.value);
    if (t.kind === "refund")
      return ok
        ? `Refunded ${value} to ${t.to}: ${t.reason} (tx ${t.txHash})`
        : `Refund of ${value} to ${t.to} failed: ${t.error} (tx ${t.txHash})`;
    if (t.kind === "return")
      return ok
        ? `${chain}: returned ${value} to the funder ${t.to} (tx ${t.txHash})`
        : `${chain}: returning ${value} to ${t.to} failed: ${t.error} (tx ${t.txHash})`;
    if (!ok)
      return `${chain}: the transfer to ${t.to} failed: ${t.error}; its BNB go back to the funder (tx ${t.txHash})`;
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
    let started = false;
    const settled = legs.map((leg) => {
      const progress = legProgress(d.antiBubblemaps, leg.index, transfers);
      started ||= progress.started;
      if (progress.delivered) return "delivered";
      if (progress.failedStep === null) return "active";
      const value = plan.legs[leg.index]?.transfers[progress.failedStep] ?? 0n;
      const held = progress.failed ? returnable(progress.failed, value, fee) : value;
      const returnDue = held > fee && d.funder !== null;
      const back = progress.returned;
      if (returnDue && back?.status !== "confirmed" && back?.status !== "failed") return "active";
      if (back?.status === "confirmed") returned += BigInt(back.value);
      else if (held > 0n) {
        // A failed return that ran paid its gas; a return not worth its gas was never sent.
        const wallet = legRoute(d.receiver, leg)[progress.failedStep] ?? d.receiver;
        stranded.push({ wallet, value: back?.paidGas ? held - fee : held });
      }
      return "failed";
    });
    if (d.status === "sending" && started) {
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
