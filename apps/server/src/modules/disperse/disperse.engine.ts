import { keyAccount, TRANSFER_GAS } from "@bundler/chain";
import type { Address } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import { groupBy } from "../../lib/group-by.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import { type RefundRoute, refundToSender } from "../../lib/refund-route.ts";
import type { TxManager } from "../transactions/tx-manager.ts";
import { DispersalFunding } from "./dispersal-funding.ts";
import { announce, finalize } from "./dispersal-outcome.ts";
import { newLegWallets } from "./dispersal-route.ts";
import { nextSteps, planOf, refundSteps } from "./dispersal-steps.ts";
import {
  purposeOf,
  type TransferRow,
  type TransferStep,
  toTransfers,
  transferKey,
} from "./dispersal-transfers.ts";
import {
  type DispersalRow,
  type DisperseRepository,
  type LegRow,
  MOVING,
} from "./disperse.repository.ts";

/** Transfers handed to the transaction manager at once (one insert, one lock per sender). */
const SEND_BATCH = 1000;

export interface DisperseEngineOptions {
  /** A status line for the dispersal's owner (`dispersal_status_{key}`). */
  emit: (ownerId: string, message: string) => void;
  log?: (message: string) => void;
  /** Where a refund to one of our own wallets goes instead (default: nowhere special). */
  refundRoute?: RefundRoute;
}

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
  private readonly funding: DispersalFunding;
  private readonly refundRoute: RefundRoute;

  constructor(
    private readonly repo: DisperseRepository,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext,
    private readonly txm: TxManager,
    private readonly options: DisperseEngineOptions,
  ) {
    this.funding = new DispersalFunding(repo, chain, options);
    this.refundRoute = options.refundRoute ?? refundToSender;
    // Every transfer that ends, whichever process's reconcile saw it, is told to its owner.
    txm.onFinal((rows) => announce(this.repo, this.options, rows));
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
      this.funding.check(),
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
      if (await finalize(this.repo, this.options, d, legs, own, plan)) continue;
      next.push(...nextSteps(d, legs, own, plan).map((t) => ({ ...t, dispersal: d })));
    }
    for (const d of active) {
      if (d.status === "pending") continue;
      const own = transfers.get(d.id) ?? [];
      const refunds = await refundSteps(
        { repo: this.repo, refundRoute: this.refundRoute, output: this.options },
        d,
        deposits.get(d.id) ?? [],
        own,
      );
      next.push(...refunds.map((t) => ({ ...t, dispersal: d })));
      const busy = own.some((t) => t.status === "signed" || t.status === "sent");
      if (!MOVING.includes(d.status) && refunds.length === 0 && !busy)
        await this.repo.settle(d.id, (deposits.get(d.id) ?? []).length);
    }
    await this.send(next, transfers, byId);
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
}
