import { buyToken, ChainError, getBalances } from "@bundler/chain";
import { type Address, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import type { DraftRow } from "../drafts/drafts.repository.ts";
import type { StoredWalletConfig } from "../drafts/drafts.service.ts";
import type { DelayedBuyRow, LaunchRepository } from "./launch.repository.ts";
import { pickDelaySeconds, reasonOf, sniperOf } from "./launch-words.ts";

/**
 * The delayed bundle: after a launch, the sniper's one buy, persisted with its due time, run
 * once (across instances and restarts) when it is due.
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

  /** A timer that runs the row when it is due (at once when overdue). */
  private arm(row: DelayedBuyRow): void {
    if (this.stopped || this.delayed.has(row.id)) return;
    let fire: () => void = () => {};
    const fired = new Promise<void>((resolve) => {
      fire = resolve;
    });
    const done = fired.then(async () => {
      const early = await this.run(row);
      this.delayed.delete(row.id);
      if (early) this.arm(early);
    });
    // A little slack so the database's now() is past dueAt when the claim runs.
    const wait = Math.max(0, row.dueAt.getTime() - Date.now()) + 25;
    const timer = setTimeout(fire, wait);
    timer.unref?.();
    this.delayed.set(row.id, { timer, done });
  }

  /**
   * Claims the row (once, across instances), buys, records the outcome. Never throws.
   * Answers the row when it is still scheduled but not yet due (clock skew): arm it again.
   */
  private async run(scheduled: DelayedBuyRow): Promise<DelayedBuyRow | undefined> {
    const who = scheduled.wallet;
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
    try {
      const chain = requireChain(this.options.chain);
      if (!chain.launchpad || !chain.trade)
        throw new ChainError(`buying is not configured for ${chain.profile.name}`);
      const funds = BigInt(row.funds);
      if (funds <= 0n) throw new ChainError(`wallet ${who} has no buy value set`);
      const key = (await this.options.vault.forDraft(row.draftId, ["bundle"])).find(
        (k) => k.address.toLowerCase() === who.toLowerCase(),
      );
      if (!key) throw new ChainError(`the private key of wallet ${who} is missing`);
      const { hash } = await buyToken(chain.client, {
        account: privateKeyToAccount(key.privateKey),
        launchpad: chain.launchpad,
        ...chain.trade,
        token: row.tokenAddress as Address,
        funds,
      });
      await this.options.repository
        .finishDelayedBuy(row.id, { status: "succeeded", txHash: hash })
        .catch(() => {});
      this.options.say(row.ownerId, `SUCCESS delayed buy by ${who}: ${hash}`);
    } catch (error) {
      const reason = reasonOf(error);
      await this.options.repository
        .finishDelayedBuy(row.id, { status: "failed", error: reason })
        .catch(() => {});
      this.options.say(row.ownerId, `FAILED delayed buy by ${who}: ${reason}`);
    }
  }

  /**
   * At start: arms every scheduled delayed buy (due and overdue ones run at once). A row left
   * running by a dead process may have sent its buy: if the wallet holds the token it is
   * recorded as done, otherwise as failed — never bought twice.
   */
  async recover(): Promise<void> {
    for (const row of await this.options.repository.delayedBuysIn("running")) {
      let held: bigint | undefined;
      if (this.options.chain)
        held = await getBalances(this.options.chain.client, {
          addresses: [row.wallet as Address],
          token: row.tokenAddress as Address,
        })
          .then(([b]) => b?.token)
          .catch(() => undefined);
      if (held !== undefined && held > 0n) {
        await this.options.repository.finishDelayedBuy(row.id, { status: "succeeded" });
        this.options.say(
          row.ownerId,
          `SUCCESS delayed buy by ${row.wallet}: it landed while the server restarted`,
        );
      } else {
        const reason =
          "the server restarted during the buy and it did not land; buy again from the wallet manager";
        await this.options.repository.finishDelayedBuy(row.id, { status: "failed", error: reason });
        this.options.say(row.ownerId, `FAILED delayed buy by ${row.wallet}: ${reason}`);
      }
    }
    for (const row of await this.options.repository.delayedBuysIn("scheduled")) this.arm(row);
  }
}
