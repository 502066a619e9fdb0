import { randomBytes } from "node:crypto";
import { buyToken, ChainError, getBalances, launchToken } from "@bundler/chain";
import { encodeCreateTokenArgs, signCreateTokenArgs } from "@bundler/contracts";
import type { TokenInfo } from "@bundler/shared";
import { type Address, formatEther, type Hex, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { ConflictError } from "../../lib/errors.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import type { DraftRow } from "../drafts/drafts.repository.ts";
import type { DraftsService, StoredWalletConfig } from "../drafts/drafts.service.ts";
import type { DelayedBuyRow, LaunchJobRow, LaunchRepository } from "./launch.repository.ts";

export type Notify = (userId: string, message: string) => void | Promise<void>;

const NOT_EXECUTABLE: Record<string, string> = {
  draft: "This draft is not paid yet: pay the launch fee before executing it",
  pending_payment: "This draft's payment has not arrived yet: execute it once it is paid",
  executing: "This draft is already being launched: follow it in the terminal",
  executed: "This draft was already launched",
};

/** A failure in words a user understands: the chain layer's shortMessage, viem's first line. */
const reasonOf = (error: unknown): string => {
  if (error instanceof ChainError) return error.shortMessage;
  const short = (error as { shortMessage?: unknown }).shortMessage;
  if (typeof short === "string" && short) return short.split("\n")[0] as string;
  return error instanceof Error ? (error.message.split("\n")[0] as string) : String(error);
};

/**
 * The delayed bundle's sniper: the wallet named by delaySnipeAddress when delayEnabled is on.
 * Product decision (SPEC §2 only says "an optional Delayed Bundle section"): the sniper is
 * held back — it is EXCLUDED from the same-block bundle and buys only once, after the delay,
 * with its own buyValue.
 */
export const sniperOf = (config: StoredWalletConfig): Address | null =>
  config.delayEnabled && config.delaySnipeAddress
    ? (config.wallets.find(
        (w) => w.address.toLowerCase() === config.delaySnipeAddress?.toLowerCase(),
      )?.address ?? null)
    : null;

/** Seconds, uniform in [minDelay, maxDelay] (whole seconds, both ends included). */
export const pickDelaySeconds = (minDelay: number, maxDelay: number): number => {
  const low = Math.max(0, Math.floor(minDelay));
  const high = Math.max(low, Math.floor(maxDelay));
  return low + Math.floor(Math.random() * (high - low + 1));
};

/**
 * The launch engine: claims a paid draft once (paid → executing), runs the bundle in the
 * background as a persisted job, streams every step to the owner, and on failure puts the
 * draft back to paid so the user can fix it and retry without paying again.
 */
export class LaunchService {
  private readonly running = new Map<string, Promise<void>>();
  /** Delayed buys waiting for their timer or running, by row id. */
  private readonly delayed = new Map<string, { timer: NodeJS.Timeout; done: Promise<void> }>();
  private stopped = false;

  constructor(
    private readonly repository: LaunchRepository,
    private readonly drafts: DraftsService,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext | undefined,
    private readonly notify: Notify,
  ) {}

  async execute(ownerId: string, draftId: string): Promise<string> {
    const draft = await this.drafts.owned(ownerId, draftId);
    if (draft.status !== "paid")
      throw new ConflictError(NOT_EXECUTABLE[draft.status] ?? "This draft cannot be executed now");
    const chain = requireChain(this.chain);
    if (!(await this.repository.claimDraft(draftId, ownerId))) {
      const now = await this.drafts.owned(ownerId, draftId);
      throw new ConflictError(NOT_EXECUTABLE[now.status] ?? "This draft cannot be executed now");
    }
    const job = await this.repository.insertJob(draftId, ownerId);
    const run = this.run(chain, job, draft).finally(() => this.running.delete(job.id));
    this.running.set(job.id, run);
    return "Launch started: follow it in the terminal";
  }

  /** Resolves when every launch this instance started has finished (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.running.values()]);
  }

  /** Resolves when every delayed buy this instance scheduled has run (tests). */
  async delayedIdle(): Promise<void> {
    while (this.delayed.size > 0) await Promise.all([...this.delayed.values()].map((d) => d.done));
  }

  /** Drops the pending timers (shutdown): their rows stay scheduled for the next start. */
  stop(): void {
    this.stopped = true;
    for (const entry of this.delayed.values()) clearTimeout(entry.timer);
    this.delayed.clear();
  }

  private say(ownerId: string, message: string): void {
    void Promise.resolve()
      .then(() => this.notify(ownerId, message))
      .catch(() => {});
  }

  /**
   * After a successful launch: persists the sniper's one delayed buy (due in a delay drawn
   * from [minDelay, maxDelay] s), tells the owner, and arms its timer. Never throws.
   */
  private async scheduleDelayedBuy(draft: DraftRow, tokenAddress: string): Promise<void> {
    const config = draft.walletConfig as StoredWalletConfig;
    const sniper = sniperOf(config);
    if (!sniper) return;
    try {
      const seconds = pickDelaySeconds(config.minDelay ?? 0, config.maxDelay ?? 0);
      const wallet = config.wallets.find((w) => w.address === sniper);
      const row = await this.repository.insertDelayedBuy({
        draftId: draft.id,
        ownerId: draft.ownerId,
        tokenAddress,
        wallet: sniper,
        funds: parseEther(wallet?.buyValue || "0").toString(),
        dueAt: new Date(Date.now() + seconds * 1000),
      });
      if (row.status !== "scheduled") return;
      const inSeconds = Math.max(0, Math.round((row.dueAt.getTime() - Date.now()) / 1000));
      this.say(draft.ownerId, `Delayed buy by ${sniper} scheduled in ${inSeconds} s`);
      this.arm(row);
    } catch (error) {
      this.say(
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
      const early = await this.runDelayedBuy(row);
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
  private async runDelayedBuy(scheduled: DelayedBuyRow): Promise<DelayedBuyRow | undefined> {
    const who = scheduled.wallet;
    let row: DelayedBuyRow | undefined;
    try {
      row = await this.repository.claimDelayedBuy(scheduled.id);
      if (!row) {
        // Another instance ran it, or the database's clock says it is not due yet.
        const now = await this.repository.findDelayedBuy(scheduled.draftId);
        return now?.status === "scheduled" ? now : undefined;
      }
    } catch {
      return; // The database is gone (shutdown): the row stays scheduled for the next start.
    }
    try {
      const chain = requireChain(this.chain);
      if (!chain.launchpad || !chain.trade)
        throw new ChainError(`buying is not configured for ${chain.profile.name}`);
      const funds = BigInt(row.funds);
      if (funds <= 0n) throw new ChainError(`wallet ${who} has no buy value set`);
      const key = (await this.vault.forDraft(row.draftId, ["bundle"])).find(
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
      await this.repository
        .finishDelayedBuy(row.id, { status: "succeeded", txHash: hash })
        .catch(() => {});
      this.say(row.ownerId, `SUCCESS delayed buy by ${who}: ${hash}`);
    } catch (error) {
      const reason = reasonOf(error);
      await this.repository
        .finishDelayedBuy(row.id, { status: "failed", error: reason })
        .catch(() => {});
      this.say(row.ownerId, `FAILED delayed buy by ${who}: ${reason}`);
    }
  }

  /**
   * At start: arms every scheduled delayed buy (due and overdue ones run at once). A row left
   * running by a dead process may have sent its buy: if the wallet holds the token it is
   * recorded as done, otherwise as failed — never bought twice.
   */
  async recoverDelayedBuys(): Promise<void> {
    for (const row of await this.repository.delayedBuysIn("running")) {
      let held: bigint | undefined;
      if (this.chain)
        held = await getBalances(this.chain.client, {
          addresses: [row.wallet as Address],
          token: row.tokenAddress as Address,
        })
          .then(([b]) => b?.token)
          .catch(() => undefined);
      if (held !== undefined && held > 0n) {
        await this.repository.finishDelayedBuy(row.id, { status: "succeeded" });
        this.say(
          row.ownerId,
          `SUCCESS delayed buy by ${row.wallet}: it landed while the server restarted`,
        );
      } else {
        const reason =
          "the server restarted during the buy and it did not land; buy again from the wallet manager";
        await this.repository.finishDelayedBuy(row.id, { status: "failed", error: reason });
        this.say(row.ownerId, `FAILED delayed buy by ${row.wallet}: ${reason}`);
      }
    }
    for (const row of await this.repository.delayedBuysIn("scheduled")) this.arm(row);
  }

  private async run(chain: ChainContext, job: LaunchJobRow, draft: DraftRow): Promise<void> {
    const say = (message: string) => {
      void Promise.resolve(this.notify(draft.ownerId, message)).catch(() => {});
    };
    try {
      const tokenInfo = draft.tokenInfo as TokenInfo;
      const config = draft.walletConfig as StoredWalletConfig;
      say(`Launching ${tokenInfo.name} (${tokenInfo.symbol})...`);
      if (!chain.launchpad)
        throw new ChainError(`no launchpad is configured for ${chain.profile.name}`);
      if (!draft.deployerAddress) throw new ChainError("the draft has no deployer wallet");
      const keys = await this.vault.forDraft(draft.id, ["deployer", "bundle", "tip"]);
      const keyOf = (purpose: "deployer" | "bundle" | "tip", address: string): Hex => {
        const key = keys.find(
          (k) => k.purpose === purpose && k.address.toLowerCase() === address.toLowerCase(),
        );
        if (!key)
          throw new ChainError(`the private key of ${purpose} wallet ${address} is missing`);
        return key.privateKey;
      };
      const creator = privateKeyToAccount(keyOf("deployer", draft.deployerAddress));
      // The delayed bundle's sniper is held back from the same-block bundle (see sniperOf).
      const sniper = sniperOf(config);
      const buyers = config.wallets
        .filter((w) => w.address !== sniper)
        .map((w) => ({ address: w.address, funds: parseEther(w.buyValue || "0") }))
        .filter((w) => w.funds > 0n)
        .map((w) => ({ account: privateKeyToAccount(keyOf("bundle", w.address)), funds: w.funds }));
      const ownTipPayer = config.tipPayer
        ? privateKeyToAccount(keyOf("tip", config.tipPayer))
        : null;
      const preSale = parseEther(tokenInfo.preSale || "0");
      const tip = config.tipEnabled === false ? 0n : parseEther(config.tip || "0");
      say(
        `PASSED checks: deployer ${creator.address}, ${buyers.length} buying wallet${buyers.length === 1 ? "" : "s"}, creator buy ${formatEther(preSale)} BNB, tip ${formatEther(tip)} BNB from ${ownTipPayer?.address ?? "the deployer"}`,
      );

      const tipPayer = ownTipPayer ?? creator;

      if (chain.profile.name !== "local" || !chain.launchSignerKey) {
        // TODO: fetch createToken's args and signature from four.meme (createFourMemeLaunchArgs).
        throw new ChainError(
          `launching on ${chain.profile.name} needs four.meme's signed createToken arguments, which this server does not fetch yet`,
        );
      }
      const createArg = encodeCreateTokenArgs({
        name: tokenInfo.name,
        symbol: tokenInfo.symbol,
        launchTime: 0n,
        requestId: BigInt(`0x${randomBytes(16).toString("hex")}`),
        preSale,
        creator: creator.address,
      });
      const signature = await signCreateTokenArgs({
        signer: privateKeyToAccount(chain.launchSignerKey),
        chainId: chain.chainId,
        launchpad: chain.launchpad,
        args: createArg,
      });
      say("PASSED createToken arguments signed by the launch signer");

      const report = await launchToken({
        rpcUrl: chain.rpcUrl,
        chainId: chain.chainId,
        launchpad: chain.launchpad,
        builders: chain.builders,
        creator,
        createArg,
        signature,
        launchFee: chain.launchpadFee,
        preSale,
        buyers,
        tipPayer,
        tip,
        curve: chain.curve,
        onStep: (message) => {
          const token = /^PASSED simulation: the token will be (0x[0-9a-fA-F]{40})/.exec(
            message,
          )?.[1];
          if (token)
            void this.repository.updateJob(job.id, { tokenAddress: token }).catch(() => {});
          say(message);
        },
      });
      const first = report.bundles[0];
      if (first?.status !== "included") throw new ChainError("the create bundle was not included");
      await this.sayHashes(chain, first.blockNumber, creator.address, buyers, say);
      await this.repository.complete({
        jobId: job.id,
        draftId: draft.id,
        ownerId: draft.ownerId,
        tokenAddress: report.token,
        ticker: tokenInfo.symbol,
        image: tokenInfo.image,
        wallets: buyers.map((b) => b.account.address),
        blockNumber: first.blockNumber,
        atomicWallets: report.atomicWithCreate.length,
      });
      say(
        `SUCCESS ${tokenInfo.symbol} launched: token ${report.token} created in block ${first.blockNumber}, ${report.atomicWithCreate.length}/${buyers.length} wallets bought in the same block`,
      );
      await this.scheduleDelayedBuy(draft, report.token);
    } catch (error) {
      const reason = reasonOf(error);
      await this.repository.releaseDraft(draft.id).catch(() => {});
      await this.repository.updateJob(job.id, { status: "failed", error: reason }).catch(() => {});
      say(`FAILED launch: ${reason}`);
      say(
        "ERROR nothing was charged again: the draft stays paid, fix the problem and execute it again",
      );
    }
  }

  /** One line per transaction of ours in the create's block, with its hash. */
  private async sayHashes(
    chain: ChainContext,
    blockNumber: bigint,
    creator: Address,
    buyers: Array<{ account: { address: Address } }>,
    say: (message: string) => void,
  ) {
    try {
      const block = await chain.client.getBlock({ blockNumber, includeTransactions: true });
      const buyerSet = new Set(buyers.map((b) => b.account.address.toLowerCase()));
      for (const tx of block.transactions) {
        const from = tx.from.toLowerCase();
        if (
          from === creator.toLowerCase() &&
          tx.to?.toLowerCase() === chain.launchpad?.toLowerCase()
        )
          say(`SUCCESS create transaction ${tx.hash}`);
        else if (buyerSet.has(from)) say(`SUCCESS buy by wallet ${tx.from}: ${tx.hash}`);
      }
    } catch {
      // The hashes are a courtesy; the launch itself is recorded below.
    }
  }

  /**
   * At start: a job left running by a previous process. If its token exists on chain the
   * launch is recorded; otherwise it is marked failed and the draft goes back to paid.
   */
  async recover(): Promise<void> {
    await this.recoverJobs();
    await this.recoverDelayedBuys().catch(() => {});
  }

  private async recoverJobs(): Promise<void> {
    for (const job of await this.repository.runningJobs()) {
      const draft = await this.drafts.repository.findById(job.draftId);
      if (!draft) continue;
      let created = false;
      if (job.tokenAddress && this.chain) {
        for (let i = 0; i < 10 && !created; i++) {
          const code = await this.chain.client
            .getCode({ address: job.tokenAddress as Address })
            .catch(() => undefined);
          created = Boolean(code && code !== "0x");
          if (!created) await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
      if (created && this.chain && job.tokenAddress) {
        const config = draft.walletConfig as StoredWalletConfig;
        const info = draft.tokenInfo as TokenInfo;
        await this.repository.complete({
          jobId: job.id,
          draftId: draft.id,
          ownerId: draft.ownerId,
          tokenAddress: job.tokenAddress,
          ticker: info.symbol,
          image: info.image,
          wallets: config.wallets
            .filter((w) => Number(w.buyValue) > 0 && w.address !== sniperOf(config))
            .map((w) => w.address),
          blockNumber: await this.creationBlock(job.tokenAddress as Address),
          atomicWallets: 0,
        });
        void this.notify(
          draft.ownerId,
          `SUCCESS the launch of ${info.symbol} finished while the server restarted: token ${job.tokenAddress}`,
        );
        await this.scheduleDelayedBuy(draft, job.tokenAddress);
      } else {
        await this.repository.releaseDraft(draft.id);
        await this.repository.updateJob(job.id, {
          status: "failed",
          error: "the server restarted during the launch and the token was not created",
        });
        void this.notify(
          draft.ownerId,
          "FAILED launch: the server restarted during the launch and the token was not created; the draft stays paid, execute it again",
        );
      }
    }
  }

  /** The first block where `token` has code (binary search on historic state). */
  private async creationBlock(token: Address): Promise<bigint> {
    const client = requireChain(this.chain).client;
    let high = await client.getBlockNumber();
    let low = 0n;
    try {
      while (low < high) {
        const mid = (low + high) / 2n;
        const code = await client.getCode({ address: token, blockNumber: mid });
        if (code && code !== "0x") high = mid;
        else low = mid + 1n;
      }
    } catch {
      return high;
    }
    return low;
  }
}
