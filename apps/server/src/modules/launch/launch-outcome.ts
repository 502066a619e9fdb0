import { ChainError } from "@bundler/chain";
import { LaunchpadManagerArtifact } from "@bundler/contracts";
import type { TokenInfo } from "@bundler/shared";
import { type Address, decodeEventLog, type Hex } from "viem";
import { type ChainContext, requireChain } from "../../lib/chain-context.ts";
import type { DraftRow } from "../drafts/drafts.repository.ts";
import type { StoredWalletConfig } from "../drafts/drafts.service.ts";
import type { TxRow } from "../transactions/transactions.repository.ts";
import type { TxManager } from "../transactions/tx-manager.ts";
import type { DelayedBuys } from "./delayed-buys.ts";
import type { LaunchRuntime } from "./launch.jobs.ts";
import type { LaunchJobRow, LaunchRepository } from "./launch.repository.ts";
import { createKey } from "./launch-keys.ts";
import { buyersOf } from "./launch-words.ts";

/** How long to wait before asking the chain again when an outcome could not be read. */
const RETRY_MS = 2000;

/**
 * How a launch ends, once: completed (the draft executed, the owner told, the delayed buy
 * scheduled) when its create landed, or released (the draft paid again) when it did not.
 */
export class LaunchOutcome {
  private stopped = false;

  constructor(
    private readonly options: {
      repository: LaunchRepository;
      chain: ChainContext | undefined;
      runtime: LaunchRuntime;
      delayedBuys: DelayedBuys;
      say: (ownerId: string, message: string) => void;
    },
  ) {}

  /** No more retries from this instance (shutdown): the job stays running for the next start. */
  stop(): void {
    this.stopped = true;
  }

  /**
   * After a failure past the first bundle's recording (or a restart): waits until the chain
   * has passed the bundle's last block, then completes the launch if its create landed or
   * releases the draft if it did not. When the chain or the database cannot answer, it asks
   * again until they do (the job stays running meanwhile, for the next start if need be).
   */
  async settle(txm: TxManager, job: LaunchJobRow, draft: DraftRow, why: string): Promise<void> {
    let lastProblem = "";
    while (!this.stopped) {
      try {
        const rows = await txm.byKeyPrefix(`launch:${job.id}:`);
        const create = rows.find((r) => r.key === createKey(job.id));
        if (!create) {
          const released = await this.options.repository.release(
            job.id,
            draft.id,
            `${why}; the launch was never sent`,
            createKey(job.id),
          );
          // Recorded meanwhile by a process that still believed it held the launch: settled
          // from what it recorded. Or no longer running: another process settled it.
          if (!released) {
            if ((await this.options.repository.findJob(job.id))?.status !== "running") return;
            continue;
          }
          this.options.say(draft.ownerId, `FAILED launch: ${why}`);
          this.options.say(
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
        await this.options.repository.release(job.id, draft.id, reason);
        this.options.say(draft.ownerId, `FAILED launch: ${reason}`);
        this.options.say(
          draft.ownerId,
          "ERROR nothing was charged again: the draft stays paid, fix the problem and execute it again",
        );
        return;
      } catch (error) {
        // Said once per new problem, not every retry.
        const problem = (error as Error).message;
        if (problem !== lastProblem)
          this.options.runtime.log?.(
            `launch ${job.id}: its outcome cannot be settled yet (${problem}); asking again every ${RETRY_MS / 1000} s`,
          );
        lastProblem = problem;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }

  /** The launched token, from the create's own TokenCreate event. */
  private async tokenOf(create: TxRow): Promise<Address> {
    const chain = requireChain(this.options.chain);
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
  async complete(
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
        completed = await this.options.repository.complete(values);
        break;
      } catch (error) {
        if (this.stopped || attempt >= 20) throw error; // the job stays running: the next start completes it
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
    if (!completed) return;
    this.options.say(
      draft.ownerId,
      `SUCCESS ${info.symbol} launched: token ${landed.tokenAddress} created in block ${landed.blockNumber}, ${landed.atomicWallets}/${wallets.length} wallets bought in the same block`,
    );
    await this.options.delayedBuys.schedule(draft, landed.tokenAddress);
  }
}
