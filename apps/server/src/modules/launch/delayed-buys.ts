import { ChainError, prepareBuy } from "@bundler/chain";
import { type Address, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import type { DraftRow } from "../drafts/drafts.repository.ts";
import type { StoredWalletConfig } from "../drafts/drafts.service.ts";
import type { TxManager } from "../transactions/tx-manager.ts";
import type { DelayedBuyRow, LaunchRepository } from "./launch.repository.ts";
import { pickDelaySeconds, reasonOf, sniperOf } from "./launch-words.ts";

/** setTimeout holds at most 2^31 − 1 ms (~24.8 days): a longer wait is armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A buy that was due by our clock but not yet by the database's waits this long to retry. */
const EARLY_RETRY_MS = 1000;

/** The delayed buy's one transaction, keyed by its draft: it is sent once, whatever restarts. */
export const delayedBuyKey = (draftId: string) => `delayed-buy:${draftId}`;

/**
 * The delayed bundle: after a launch, the sniper's one buy, persisted with its due time, run
 * once (across instances and restarts) when it is due. The buy goes through the transaction
 * manager, so a restart finds it (recorded before it was broadcast) and waits for it to end
 * instead of calling it failed while it can still land, or buying again.
 */
export class DelayedBuys {
  /** Delayed buys waiting for their timer or running, by row id. */
  private readonly delayed = new Map<string, { timer: NodeJS.Timeout; done: Promise<void> }>();
  private stopped = false;

  constructor(
    private readonly options: {
      repository: LaunchRepository;
      vault: KeyVault;
      chain: ChainContext | undefined;
      txm: TxManager | undefined;
      say: (ownerId: string, message: string) => void;
    },
  ) {}

  /** Resolves when every delayed buy this instance scheduled has run (tests). */
  async idle(): Promise<void> {
    while (this.delayed.size > 0) await Promise.all([...this.delayed.values()].map((d) => d.done));
  }

  /** Drops the pending timers (shutdown): their rows stay scheduled for the next start. */
  stop(): void {
    this.stopped = true;
    for (const entry of this.delayed.values()) clearTimeout(entry.timer);
    this.delayed.clear();
  }

  /**
   * After a successful launch: persists the sniper's one delayed buy (due in a delay drawn
   * from [minDelay, maxDelay] s), tells the owner, and arms its timer. Never throws.
   */
  async schedule(draft: DraftRow, tokenAddress: string): Promise<void> {
    const config = draft.walletConfig as StoredWalletConfig;
    const sniper = sniperOf(config);
    if (!sniper) return;
    try {
      const seconds = pickDelaySeconds(config.minDelay ?? 0, config.maxDelay ?? 0);
      const wallet = config.wallets.find((w) => w.address === sniper);
      const row = await this.options.repository.insertDelayedBuy({
        draftId: draft.id,
        ownerId: draft.ownerId,
        tokenAddress,
        wallet: sniper,
        funds: parseEther(wallet?.buyValue || "0").toString(),
        dueAt: new Date(Date.now() + seconds * 1000),
      });
      if (row.status !== "scheduled") return;
      const inSeconds = Math.max(0, Math.round((row.dueAt.getTime() - Date.now()) / 1000));
      this.options.say(draft.ownerId, `Delayed buy by ${sniper} scheduled in ${inSeconds} s`);
      this.arm(row);
    } catch (error) {
      this.options.say(
        draft.ownerId,
        `FAILED delayed buy by ${sniper}: it could not be scheduled (${reasonOf(error)})`,
      );
    }
  }

  /**
   * A timer that runs the row when it is due (at once when overdue). A wait longer than a timer
   * holds is armed in steps; a buy not yet due by the database's clock is tried again a second
   * later, never in a tight loop.
   */
  private arm(row: DelayedBuyRow, minimumMs = 0): void {
    if (this.stopped || this.delayed.has(row.id)) return;
    // A little slack so the database's now() is past dueAt when the claim runs.
    const due = Math.max(minimumMs, row.dueAt.getTime() - Date.now() + 25);
    const wait = Math.min(due, MAX_TIMER_MS);
    let fire: () => void = () => {};
    const fired = new Promise<void>((resolve) => {
      fire = resolve;
    });
    const done = fired.then(async () => {
      if (wait < due) {
        this.delayed.delete(row.id);
        return this.arm(row);
      }
      const early = await this.claimAndRun(row);
      this.delayed.delete(row.id);
      if (early) this.arm(early, EARLY_RETRY_MS);
    });
    const timer = setTimeout(fire, wait);
    timer.unref?.();
    this.delayed.set(row.id, { timer, done });
  }

  /** Claims the row (once, across instances) and runs it; answers it when not yet due. */
  private async claimAndRun(scheduled: DelayedBuyRow): Promise<DelayedBuyRow | undefined> {
    let row: DelayedBuyRow | undefined;
    try {
      row = await this.options.repository.claimDelayedBuy(scheduled.id);
      if (!row) {
        // Another instance ran it, or the database's clock says it is not due yet.
        const now = await this.options.repository.findDelayedBuy(scheduled.draftId);
        return now?.status === "scheduled" ? now : undefined;
      }
    } catch {
      return; // The database is gone (shutdown): the row stays scheduled for the next start.
    }
    await this.run(row);
  }

  /**
   * Sends the buy through the transaction manager (unless it already was: a restart), waits
   * for it to end and records the outcome. Never throws; when the outcome cannot be known yet
   * (the node or the database away) the row stays running for the next start.
   */
  private async run(row: DelayedBuyRow): Promise<void> {
    const who = row.wallet;
    const key = delayedBuyKey(row.draftId);
    const finish = async (
      values: Parameters<LaunchRepository["finishDelayedBuy"]>[1],
      message: string,
    ) => {
      if (await this.options.repository.finishDelayedBuy(row.id, values).catch(() => false))
        this.options.say(row.ownerId, message);
    };
    let txm: TxManager;
    try {
      const chain = requireChain(this.options.chain);
      if (!this.options.txm) throw new ChainError("no transaction manager");
      txm = this.options.txm;
      const [sent] = await txm.find([key]);
      if (!sent) await this.send(chain, txm, row, key);
    } catch (error) {
      const reason = reasonOf(error);
      return finish({ status: "failed", error: reason }, `FAILED delayed buy by ${who}: ${reason}`);
    }
    let outcome: Awaited<ReturnType<TxManager["waitFinal"]>>[number] | undefined;
    try {
      [outcome] = await txm.waitFinal([key]);
    } catch {
      return; // Not known yet: the row stays running and the next start waits for it again.
    }
    if (outcome?.status === "mined")
      return finish(
        { status: "succeeded", txHash: outcome.txHash },
        `SUCCESS delayed buy by ${who}: ${outcome.txHash}`,
      );
    const reason =
      outcome?.status === "reverted"
        ? `it reverted: ${outcome.error}`
        : `it was not mined: ${outcome?.error ?? "unknown"}`;
    await finish(
      { status: "failed", txHash: outcome?.txHash ?? null, error: reason },
      `FAILED delayed buy by ${who}: ${reason}`,
    );
  }

  private async send(chain: ChainContext, txm: TxManager, row: DelayedBuyRow, key: string) {
    if (!chain.launchpad || !chain.trade)
      throw new ChainError(`buying is not configured for ${chain.profile.name}`);
    const funds = BigInt(row.funds);
    if (funds <= 0n) throw new ChainError(`wallet ${row.wallet} has no buy value set`);
    const stored = (await this.options.vault.forDraft(row.draftId, ["bundle"])).find(
      (k) => k.address.toLowerCase() === row.wallet.toLowerCase(),
    );
    if (!stored) throw new ChainError(`the private key of wallet ${row.wallet} is missing`);
    const account = privateKeyToAccount(stored.privateKey);
    const prepared = await prepareBuy(chain.client, {
      account,
      launchpad: chain.launchpad,
      ...chain.trade,
      token: row.tokenAddress as Address,
      funds,
    });
    await txm.send([
      {
        key,
        purpose: "delayed-buy",
        ownerId: row.ownerId,
        subject: row.draftId,
        account,
        ...prepared.request,
        gas: prepared.gas,
        gasPrice: prepared.gasPrice,
        reason: "delayed buy",
      },
    ]);
  }

  /**
   * At start: a row left running by a dead process is run again from where it was (its buy,
   * recorded before broadcast, is waited for, never sent twice; one never recorded is sent);
   * every scheduled row is armed (due and overdue ones run at once).
   */
  async recover(): Promise<void> {
    for (const row of await this.options.repository.delayedBuysIn("running")) {
      if (this.stopped || this.delayed.has(row.id)) continue;
      const done = this.run(row).finally(() => this.delayed.delete(row.id));
      this.delayed.set(row.id, { timer: setTimeout(() => {}, 0), done });
    }
    for (const row of await this.options.repository.delayedBuysIn("scheduled")) this.arm(row);
  }
}
