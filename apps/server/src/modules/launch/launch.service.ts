import { ChainError, launchToken } from "@bundler/chain";
import type { TokenInfo } from "@bundler/shared";
import { type Address, formatEther, type Hex, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import { BadRequestError, ConflictError } from "../../lib/errors.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import type { DraftRow } from "../drafts/drafts.repository.ts";
import type { DraftsService, StoredWalletConfig } from "../drafts/drafts.service.ts";
import { createArgsFor } from "./create-args.ts";
import { DelayedBuys } from "./delayed-buys.ts";
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

/**
 * The launch engine: claims a paid draft once (paid → executing), runs the bundle in the
 * background as a persisted job, streams every step to the owner, and on failure puts the
 * draft back to paid so the user can fix it and retry without paying again.
 */
export class LaunchService {
  private readonly running = new Map<string, Promise<void>>();
  private readonly delayedBuys: DelayedBuys;

  constructor(
    private readonly repository: LaunchRepository,
    private readonly drafts: DraftsService,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext | undefined,
    private readonly notify: Notify,
  ) {
    this.delayedBuys = new DelayedBuys({
      repository,
      vault,
      chain,
      say: (ownerId, message) => this.say(ownerId, message),
    });
  }

  async execute(ownerId: string, draftId: string): Promise<string> {
    const draft = await this.drafts.owned(ownerId, draftId);
    if (draft.status !== "paid")
      throw new ConflictError(NOT_EXECUTABLE[draft.status] ?? "This draft cannot be executed now");
    const problem = await this.drafts.launchProblem(draft);
    if (problem) throw new BadRequestError(problem);
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
  delayedIdle(): Promise<void> {
    return this.delayedBuys.idle();
  }

  /** Drops the pending timers (shutdown): their rows stay scheduled for the next start. */
  stop(): void {
    this.delayedBuys.stop();
  }

  private say(ownerId: string, message: string): void {
    void Promise.resolve()
      .then(() => this.notify(ownerId, message))
      .catch(() => {});
  }

  private async run(chain: ChainContext, job: LaunchJobRow, draft: DraftRow): Promise<void> {
    const say = (message: string) => this.say(draft.ownerId, message);
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
        tipPayer,
        tip,
        // Awaited by launchToken: the token address is recorded before any bundle goes out.
        onStep: async (message) => {
          const token = /^PASSED simulation: the token will be (0x[0-9a-fA-F]{40})/.exec(
            message,
          )?.[1];
          if (token)
            await this.repository.updateJob(job.id, { tokenAddress: token }).catch(() => {});
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
      await this.delayedBuys.schedule(draft, report.token);
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
    await this.delayedBuys.recover().catch(() => {});
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
        this.say(
          draft.ownerId,
          `SUCCESS the launch of ${info.symbol} finished while the server restarted: token ${job.tokenAddress}`,
        );
        await this.delayedBuys.schedule(draft, job.tokenAddress);
      } else {
        await this.repository.releaseDraft(draft.id);
        await this.repository.updateJob(job.id, {
          status: "failed",
          error: "the server restarted during the launch and the token was not created",
        });
        this.say(
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
