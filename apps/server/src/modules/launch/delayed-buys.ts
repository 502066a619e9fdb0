import { ChainError, keyAccount, prepareBuy } from "@bundler/chain";
import { type Address, parseEther } from "viem";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import type { DraftRow } from "../drafts/drafts.repository.ts";
import type { StoredWalletConfig } from "../drafts/drafts.service.ts";
import type { TxManager } from "../transactions/tx-manager.ts";
import { DELAYED_BUY, DELAYED_BUY_DUE, type LaunchRuntime } from "./launch.jobs.ts";
import type { DelayedBuyRow, LaunchRepository } from "./launch.repository.ts";
import { pickDelaySeconds, reasonOf, sniperOf } from "./launch-words.ts";

/** An overdue buy still scheduled this long after its due time is handed to a worker again. */
const OVERDUE_MS = 2000;

/** The delayed buy's one transaction, keyed by its draft: it is sent once, whatever restarts. */
export const delayedBuyKey = (draftId: string) => `delayed-buy:${draftId}`;

/**
 * The delayed bundle: after a launch, the sniper's one buy, persisted with its due time, run
 * once (across instances and restarts) when it is due. The buy goes through the transaction
 * manager, so a restart finds it (recorded before it was broadcast) and waits for it to end
 * instead of calling it failed while it can still land, or buying again.
 */
export class DelayedBuys {
  /** Rows this instance scheduled or handed on, until they end (for `idle`). */
  private readonly watched = new Set<string>();
  private stopped = false;

  constructor(
    private readonly options: {
      repository: LaunchRepository;
      vault: KeyVault;
      chain: ChainContext | undefined;
      txm: TxManager | undefined;
      runtime: LaunchRuntime;
      say: (ownerId: string, message: string) => void;
    },
  ) {}

  /** Resolves when every delayed buy this instance scheduled or handed on has ended (tests). */
  async idle(): Promise<void> {
    while (this.watched.size > 0) {
      for (const id of this.watched) {
        const row = await this.options.repository.findDelayedBuyById(id);
        if (row?.status !== "scheduled" && row?.status !== "running") this.watched.delete(id);
      }
      if (this.watched.size > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** No more runs from this instance (shutdown): the rows stay for other workers. */
  stop(): void {
    this.stopped = true;
  }

  /**
   * After a successful launch: persists the sniper's one delayed buy (due in a delay drawn
   * from [minDelay, maxDelay] s), tells the owner, and sends its job to start when it is due.
   * Never throws.
   */
  async schedule(draft: DraftRow, tokenAddress: string): Promise<void> {
    const config = draft.walletConfig as StoredWalletConfig;
    const sniper = sniperOf(config);
    if (!sniper) return;
    try {
      const seconds = pickDelaySeconds(config.minDelay ?? 0, config.maxDelay ?? 0);
      const wallet = config.wallets.find((w) => w.address === sniper);
      const dueAt = new Date(Date.now() + seconds * 1000);
      const row = await this.options.repository.insertDelayedBuy({
        draftId: draft.id,
        ownerId: draft.ownerId,
        tokenAddress,
        wallet: sniper,
        funds: parseEther(wallet?.buyValue || "0").toString(),
        dueAt,
      });
      if (row.status !== "scheduled") return;
      // The delay drawn for it; a row an earlier run scheduled says what is left of its own.
      const inSeconds =
        row.dueAt.getTime() === dueAt.getTime()
          ? seconds
          : Math.max(0, Math.ceil((row.dueAt.getTime() - Date.now()) / 1000));
      this.options.say(draft.ownerId, `Delayed buy by ${sniper} scheduled in ${inSeconds} s`);
      await this.options.runtime.jobs.send(
        DELAYED_BUY.name,
        { id: row.id },
        { startAfter: row.dueAt },
      );
      this.watched.add(row.id);
    } catch (error) {
      this.options.say(
        draft.ownerId,
        `FAILED delayed buy by ${sniper}: it could not be scheduled (${reasonOf(error)})`,
      );
    }
  }

  /**
   * Runs a delayed buy job under the buy's lock: a scheduled row is claimed (once, across
   * processes) and bought; a row left running by a process that died is run again from where
   * it was (its buy, recorded before broadcast, is waited for, never sent twice). A row not yet
   * due by the database's clock gets a job at its due time instead.
   */
  async handle(id: string): Promise<void> {
    if (this.stopped) throw new Error("stopping: another worker takes the delayed buy");
    const release = await this.options.runtime.tryLock(`delayed-buy:${id}`);
    if (!release) return; // Running elsewhere: that worker finishes it.
    try {
      const row = await this.options.repository.findDelayedBuyById(id);
      if (row?.status === "running") return await this.run(row);
      if (row?.status !== "scheduled") return;
      const claimed = await this.options.repository.claimDelayedBuy(id);
      if (claimed) return await this.run(claimed);
      await this.options.runtime.jobs.send(
        DELAYED_BUY.name,
        { id },
        { startAfter: new Date(Math.max(row.dueAt.getTime(), Date.now() + 1000)) },
      );
    } finally {
      await release();
    }
  }

  /**
   * Buys whose process died are handed to a live worker: a running row nobody holds, and a
   * scheduled row well past its due time (its job lost with an old version, or a clock apart).
   */
  async adopt(): Promise<void> {
    const due = Date.now() - OVERDUE_MS;
    const scheduled = (await this.options.repository.delayedBuysIn("scheduled")).filter(
      (row) => row.dueAt.getTime() <= due,
    );
    const orphaned: DelayedBuyRow[] = [];
    for (const row of await this.options.repository.delayedBuysIn("running")) {
      const release = await this.options.runtime.tryLock(`delayed-buy:${row.id}`);
      if (!release) continue;
      await release();
      orphaned.push(row);
    }
    for (const row of [...scheduled, ...orphaned]) {
      await this.options.runtime.jobs.send(
        DELAYED_BUY_DUE.name,
        { id: row.id },
        {
          singletonKey: row.id,
        },
      );
      this.watched.add(row.id);
    }
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
    const account = keyAccount(stored.privateKey);
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
}
