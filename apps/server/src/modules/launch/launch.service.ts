import { ChainError, keyAccount, launchToken, type SignedBundle } from "@bundler/chain";
import { LaunchpadManagerArtifact } from "@bundler/contracts";
import type { TokenInfo } from "@bundler/shared";
import { type Address, decodeEventLog, formatEther, type Hex, parseEther } from "viem";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { BadRequestError, ConflictError } from "../../lib/errors.ts";
import { failpoint } from "../../lib/failpoints.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import type { DraftRow } from "../drafts/drafts.repository.ts";
import type { DraftsService, StoredWalletConfig } from "../drafts/drafts.service.ts";
import type { TxRow } from "../transactions/transactions.repository.ts";
import type { TxManager } from "../transactions/tx-manager.ts";
import { createArgsFor } from "./create-args.ts";
import { DelayedBuys } from "./delayed-buys.ts";
import { LAUNCH_EXECUTE, LAUNCH_SETTLE, type LaunchRuntime } from "./launch.jobs.ts";
import type { LaunchJobRow, LaunchRepository } from "./launch.repository.ts";
import { launchGasPrice } from "./launch-costs.ts";
import { reasonOf, sniperOf } from "./launch-words.ts";

export type Notify = (userId: string, message: string) => void | Promise<void>;

const NOT_EXECUTABLE: Record<string, string> = {
  draft: "This draft is not paid yet: pay the launch fee before executing it",
  pending_payment: "This draft's payment has not arrived yet: execute it once it is paid",
  executing: "This draft is already being launched: follow it in the terminal",
  executed: "This draft was already launched",
};

/** How long to wait before asking the chain again when an outcome could not be read. */
const RETRY_MS = 2000;
/** A launch job sent this long ago and not yet holding its lock is taken for dead. */
const START_GRACE_MS = 5000;

/** Thrown by a handler whose launch another process holds: pg-boss tries it again later. */
class HeldElsewhere extends Error {
  constructor(what: string) {
    super(`${what} is running in another process; tried again later`);
  }
}

/** The transaction keys of a launch job: `launch:{job}:b{bundle}:{index}` (index 0 of b0 is the create). */
const bundleKey = (jobId: string, bundle: number, index: number) =>
  `launch:${jobId}:b${bundle}:${index}`;
const createKey = (jobId: string) => bundleKey(jobId, 0, 0);

/**
 * The launch engine: claims a paid draft once (paid → executing, with its job, in one
 * transaction), runs the bundle in the background, streams every step to the owner. Every
 * bundle is recorded with the transaction manager before it is sent; after anything goes wrong
 * past that point the launch waits until the bundle's last block has passed and asks the chain:
 * the create landed → the launch is recorded (the draft executed); it did not → the draft goes
 * back to paid, so the user retries without paying again. Never both, never neither.
 */
export class LaunchService {
  /** Launch jobs this instance started, until they end (for `idle`). */
  private readonly started = new Set<string>();
  private readonly delayedBuys: DelayedBuys;
  private readonly stopHooks: Array<() => Promise<void>> = [];
  private stopped = false;

  constructor(
    private readonly repository: LaunchRepository,
    private readonly drafts: DraftsService,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext | undefined,
    private readonly notify: Notify,
    private readonly runtime: LaunchRuntime,
    private readonly txm?: TxManager,
  ) {
    this.delayedBuys = new DelayedBuys({
      repository,
      vault,
      chain,
      txm,
      runtime,
      say: (ownerId, message) => this.say(ownerId, message),
    });
  }

  async execute(ownerId: string, draftId: string): Promise<string> {
    const draft = await this.drafts.owned(ownerId, draftId);
    if (draft.status !== "paid")
      throw new ConflictError(NOT_EXECUTABLE[draft.status] ?? "This draft cannot be executed now");
    // Refused here, before the claim, when this server cannot launch at all.
    requireChain(this.chain);
    this.requireTxm();
    // The job's id is the launch's: its first delivery sends the bundle, any later one settles.
    const claimed = await this.repository.claimDraft(draftId, ownerId, async (tx, job) => {
      await this.runtime.jobs.send(LAUNCH_EXECUTE.name, { jobId: job.id }, { id: job.id, tx });
    });
    if (!claimed) {
      const now = await this.drafts.owned(ownerId, draftId);
      throw new ConflictError(NOT_EXECUTABLE[now.status] ?? "This draft cannot be executed now");
    }
    await failpoint("launch.claimed");
    // Checked on the row the claim returned: what is checked is what launches.
    const problem = await this.drafts.launchProblem(claimed.draft);
    if (problem) {
      await this.repository.release(claimed.job.id, draftId, problem, createKey(claimed.job.id));
      throw new BadRequestError(problem);
    }
    this.started.add(claimed.job.id);
    this.runtime.jobs.wake(LAUNCH_EXECUTE.name);
    return "Launch started: follow it in the terminal";
  }

  /**
   * Runs a launch job, in whichever process got it, under the launch's lock (one place at a
   * time): `fresh` (the job's first delivery) sends the bundle; otherwise the launch was
   * interrupted and only the chain says how it ended. A launch no longer running is left alone.
   */
  async handle(jobId: string, fresh: boolean): Promise<void> {
    const release = await this.runtime.tryLock(`launch:${jobId}`);
    if (!release) throw new HeldElsewhere(`launch ${jobId}`);
    try {
      const job = await this.repository.findJob(jobId);
      if (job?.status !== "running") return;
      const draft = await this.drafts.repository.findById(job.draftId);
      if (!draft) return;
      if (!fresh) return await this.settle(job, draft, "the server restarted during the launch");
      // Checked again here: another process may take the job before `execute` checked it.
      const problem = await this.drafts.launchProblem(draft);
      if (problem) {
        await this.repository.release(job.id, draft.id, problem, createKey(job.id));
        return;
      }
      await this.run(requireChain(this.chain), this.requireTxm(), job, draft);
    } finally {
      await release();
    }
  }

  /** Runs a delayed buy job (see DelayedBuys.handle). */
  handleDelayedBuy(id: string): Promise<void> {
    return this.delayedBuys.handle(id);
  }

  /**
   * Hands work whose process died to a live one: a running launch whose job is neither waiting
   * nor held (its lock is free) gets a settle job; delayed buys likewise. Each block, and at start.
   */
  async adopt(): Promise<void> {
    for (const job of await this.repository.runningJobs()) {
      if (await this.heldOrWaiting(job)) continue;
      await this.runtime.jobs.send(LAUNCH_SETTLE.name, { jobId: job.id }, { singletonKey: job.id });
      this.started.add(job.id);
    }
    await this.delayedBuys.adopt();
  }

  private async heldOrWaiting(job: LaunchJobRow): Promise<boolean> {
    const queued = await this.runtime.jobs.stateOf(LAUNCH_EXECUTE.name, job.id);
    if (queued?.state === "created" || queued?.state === "retry") return true;
    const since = queued?.startedOn ?? job.createdAt;
    if (queued?.state !== "completed" && Date.now() - since.getTime() < START_GRACE_MS) return true;
    const release = await this.runtime.tryLock(`launch:${job.id}`);
    if (!release) return true;
    await release();
    return false;
  }

  /** Resolves when every launch this instance started has ended (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.started.size > 0) {
      for (const id of this.started) {
        const job = await this.repository.findJob(id);
        if (job?.status !== "running") this.started.delete(id);
      }
      if (this.started.size > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Resolves when every delayed buy this instance scheduled or adopted has ended (tests). */
  delayedIdle(): Promise<void> {
    return this.delayedBuys.idle();
  }

  /** Runs `hook` at `stop` (the job workers of this instance). */
  onStop(hook: () => Promise<void>): void {
    this.stopHooks.push(hook);
  }

  /** Stops this instance's workers and retries (shutdown): other processes, or the next start, go on. */
  stop(): void {
    this.stopped = true;
    this.delayedBuys.stop();
    for (const hook of this.stopHooks.splice(0)) void hook().catch(() => {});
  }

  private requireTxm(): TxManager {
    if (!this.txm) throw new ChainError("no transaction manager");
    return this.txm;
  }

  private say(ownerId: string, message: string): void {
    void Promise.resolve()
      .then(() => this.notify(ownerId, message))
      .catch(() => {});
  }

  private async run(
    chain: ChainContext,
    txm: TxManager,
    job: LaunchJobRow,
    draft: DraftRow,
  ): Promise<void> {
    const say = (message: string) => this.say(draft.ownerId, message);
    // Set once the first bundle is recorded: from then on only the chain says how it ended.
    let sent = false;
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
      const creator = keyAccount(
        keyOf("deployer", draft.deployerAddress),
        draft.deployerAddress as Address,
      );
      const buyers = buyersOf(config).map((w) => ({
        account: keyAccount(keyOf("bundle", w.address), w.address as Address),
        funds: w.funds,
      }));
      const ownTipPayer = config.tipPayer ? keyAccount(keyOf("tip", config.tipPayer)) : null;
      const preSale = parseEther(tokenInfo.preSale || "0");
      const tip = config.tipEnabled === false ? 0n : parseEther(config.tip || "0");
      say(
        `PASSED checks: deployer ${creator.address}, ${buyers.length} buying wallet${buyers.length === 1 ? "" : "s"}, creator buy ${formatEther(preSale)} BNB, tip ${formatEther(tip)} BNB from ${ownTipPayer?.address ?? "the deployer"}`,
      );

      const { createArg, signature, creationFee } = await createArgsFor(chain, {
        creator,
        tokenInfo,
        say,
      });
      const gasPrice = await launchGasPrice(chain);

      const report = await launchToken({
        rpcUrl: chain.rpcUrl,
        chainId: chain.chainId,
        launchpad: chain.launchpad,
        builders: chain.builders,
        creator,
        createArg,
        signature,
        launchFee: creationFee,
        gasPrice,
        preSale,
        buyers,
        tipPayer: ownTipPayer ?? creator,
        tip,
        ...(chain.bundleTimeoutMs ? { submitTimeoutMs: chain.bundleTimeoutMs } : {}),
        onStep: async (message) => {
          const token = /^PASSED simulation: the token will be (0x[0-9a-fA-F]{40})/.exec(
            message,
          )?.[1];
          if (token) await this.repository.updateJob(job.id, { tokenAddress: token });
          say(message);
        },
        // Recorded before it is sent; a bundle that cannot be recorded is not sent.
        onBundle: async (bundle) => {
          await this.record(txm, job, bundle);
          if (bundle.index === 0) sent = true;
          await failpoint("launch.recorded");
        },
      });
      await failpoint("launch.landed");
      const first = report.bundles[0];
      if (first?.status !== "included") throw new ChainError("the create bundle was not included");
      await this.sayHashes(chain, first.blockNumber, creator.address, buyers, say);
      await this.complete(job, draft, {
        tokenAddress: report.token,
        blockNumber: first.blockNumber,
        atomicWallets: report.atomicWithCreate.length,
      });
    } catch (error) {
      const reason = reasonOf(error);
      if (!sent) {
        // Nothing was sent: nothing can have landed.
        await this.repository.release(job.id, draft.id, reason, createKey(job.id)).catch(() => {});
        say(`FAILED launch: ${reason}`);
        say(
          "ERROR nothing was charged again: the draft stays paid, fix the problem and execute it again",
        );
        return;
      }
      say(`ERROR ${reason}: checking on the chain whether the launch landed...`);
      await this.settle(job, draft, reason);
    }
  }

  /**
   * Records a signed bundle's transactions under the job's keys (never broadcast). A wallet
   * with another transaction of ours still open at the same nonce refuses the record, and so
   * the bundle: said in words.
   */
  private async record(txm: TxManager, job: LaunchJobRow, bundle: SignedBundle): Promise<void> {
    await txm
      .recordBundle(
        bundle.txs.map((raw, i) => ({
          key: bundleKey(job.id, bundle.index, i),
          purpose: "launch" as const,
          ownerId: job.ownerId,
          subject: job.id,
          raw,
          reason: bundle.roles[i] ?? null,
        })),
        bundle.maxBlockNumber,
        // Only while the job is running: another process that found this launch's lock free
        // may have released it (a lost database connection drops the lock unnoticed).
        async (tx) => {
          if (!(await this.repository.lockRunning(tx, job.id)))
            throw new ChainError("this launch was settled by another process meanwhile");
        },
      )
      .catch((error: unknown) => {
        if (isUniqueViolation(error))
          throw new ChainError(
            "a wallet of this launch has another transaction of ours still waiting to be mined; try again once it is",
          );
        throw error;
      });
  }

  /**
   * After a failure past the first bundle's recording (or a restart): waits until the chain
   * has passed the bundle's last block, then completes the launch if its create landed or
   * releases the draft if it did not. When the chain or the database cannot answer, it asks
   * again until they do (the job stays running meanwhile, for the next start if need be).
   */
  private async settle(job: LaunchJobRow, draft: DraftRow, why: string): Promise<void> {
    const txm = this.requireTxm();
    let lastProblem = "";
    while (!this.stopped) {
      try {
        const rows = await txm.byKeyPrefix(`launch:${job.id}:`);
        const create = rows.find((r) => r.key === createKey(job.id));
        if (!create) {
          const released = await this.repository.release(
            job.id,
            draft.id,
            `${why}; the launch was never sent`,
            createKey(job.id),
          );
          // Recorded meanwhile by a process that still believed it held the launch: settled
          // from what it recorded. Or no longer running: another process settled it.
          if (!released) {
            if ((await this.repository.findJob(job.id))?.status !== "running") return;
            continue;
          }
          this.say(draft.ownerId, `FAILED launch: ${why}`);
          this.say(
            draft.ownerId,
            "ERROR nothing was sent: the draft stays paid, fix the problem and execute it again",
          );
          return;
        }
        const final = await txm.waitFinal(
          rows.map((r) => r.key),
          { timeoutMs: 120_000 },
        );
        const landed = final.find((r) => r.key === create.key);
        // A block dropped after it was seen leaves a "mined" the chain no longer has.
        if (landed?.status === "mined" && (await txm.recheck(final.map((r) => r.key))).length > 0)
          continue;
        if (landed?.status === "mined") {
          const atomicWallets = final.filter(
            (r) =>
              r.key.startsWith(`launch:${job.id}:b0:`) &&
              r.key !== create.key &&
              r.status === "mined",
          ).length;
          await this.complete(job, draft, {
            tokenAddress: await this.tokenOf(landed),
            blockNumber: landed.blockNumber ?? 0n,
            atomicWallets,
          });
          return;
        }
        const reason = `${why}; the launch did not land (${landed?.error ?? "not mined"})`;
        await this.repository.release(job.id, draft.id, reason);
        this.say(draft.ownerId, `FAILED launch: ${reason}`);
        this.say(
          draft.ownerId,
          "ERROR nothing was charged again: the draft stays paid, fix the problem and execute it again",
        );
        return;
      } catch (error) {
        // Said once per new problem, not every retry.
        const problem = (error as Error).message;
        if (problem !== lastProblem)
          this.runtime.log?.(
            `launch ${job.id}: its outcome cannot be settled yet (${problem}); asking again every ${RETRY_MS / 1000} s`,
          );
        lastProblem = problem;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }

  /** The launched token, from the create's own TokenCreate event. */
  private async tokenOf(create: TxRow): Promise<Address> {
    const chain = requireChain(this.chain);
    const receipt = await chain.client.getTransactionReceipt({ hash: create.txHash as Hex });
    for (const log of receipt.logs) {
      try {
        const event = decodeEventLog({
          abi: LaunchpadManagerArtifact.abi,
          data: log.data,
          topics: log.topics,
        });
        if (event.eventName === "TokenCreate") return (event.args as { token: Address }).token;
      } catch {
        // Not one of the launchpad's events.
      }
    }
    throw new ChainError(`the create ${create.txHash} emitted no TokenCreate`);
  }

  /**
   * Records the launch (draft executed, job succeeded), retrying while the database refuses;
   * then tells the owner and schedules the delayed buy. Another worker that completed it first
   * leaves nothing to do.
   */
  private async complete(
    job: LaunchJobRow,
    draft: DraftRow,
    landed: { tokenAddress: Address; blockNumber: bigint; atomicWallets: number },
  ): Promise<void> {
    const info = draft.tokenInfo as TokenInfo;
    const wallets = buyersOf(draft.walletConfig as StoredWalletConfig).map((w) => w.address);
    const values = {
      ...landed,
      jobId: job.id,
      draftId: draft.id,
      ownerId: draft.ownerId,
      ticker: info.symbol,
      name: info.name,
      image: info.image,
      wallets,
    };
    let completed = false;
    for (let attempt = 0; ; attempt++) {
      try {
        completed = await this.repository.complete(values);
        break;
      } catch (error) {
        if (this.stopped || attempt >= 20) throw error; // the job stays running: the next start completes it
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
    if (!completed) return;
    this.say(
      draft.ownerId,
      `SUCCESS ${info.symbol} launched: token ${landed.tokenAddress} created in block ${landed.blockNumber}, ${landed.atomicWallets}/${wallets.length} wallets bought in the same block`,
    );
    await this.delayedBuys.schedule(draft, landed.tokenAddress);
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
   * At start: drafts an older version left executing without a job go back to paid; then the
   * same sweep as every block (work whose process died goes to a live worker).
   */
  async recover(): Promise<void> {
    for (const ownerId of await this.repository.releaseOrphans())
      this.say(
        ownerId,
        "FAILED launch: the server restarted before the launch started; the draft stays paid, execute it again",
      );
    await this.adopt();
  }
}

/** Postgres refused a duplicate (SQLSTATE 23505), wherever in the error's causes it says so. */
const isUniqueViolation = (error: unknown): boolean => {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; ) {
    if (e.code === "23505") return true;
    e = e.cause as typeof e;
  }
  return false;
};

/** The bundle's buyers: every wallet with a buy, but the delayed bundle's sniper. */
const buyersOf = (config: StoredWalletConfig) => {
  const sniper = sniperOf(config);
  return config.wallets
    .filter((w) => w.address !== sniper)
    .map((w) => ({ address: w.address, funds: parseEther(w.buyValue || "0") }))
    .filter((w) => w.funds > 0n);
};
