import { ChainError, keyAccount, launchToken, type SignedBundle } from "@bundler/chain";
import { bnbWords, type TokenInfo } from "@bundler/shared";
import { type Address, type Hex, parseEther } from "viem";
import { bundleWindowBlocks } from "../../lib/bundle-window.ts";
import type { ChainContext } from "../../lib/chain-context.ts";
import { failpoint } from "../../lib/failpoints.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import type { BuilderSends } from "../builders/builders.service.ts";
import type { DraftRow } from "../drafts/drafts.repository.ts";
import type { StoredWalletConfig } from "../drafts/drafts.service.ts";
import type { TxManager } from "../transactions/tx-manager.ts";
import { createArgsFor } from "./create-args.ts";
import type { LaunchJobRow, LaunchRepository } from "./launch.repository.ts";
import { launchGasPrice } from "./launch-costs.ts";
import { bundleKey, createKey } from "./launch-keys.ts";
import type { LaunchOutcome } from "./launch-outcome.ts";
import { buyersOf, reasonOf } from "./launch-words.ts";

/** What a launch's run works with. */
export interface LaunchRunOptions {
  repository: LaunchRepository;
  vault: KeyVault;
  outcome: LaunchOutcome;
  say: (ownerId: string, message: string) => void;
  /** Where each bundle's builder answers are recorded. */
  sends?: BuilderSends;
}

/**
 * Sends a claimed launch's bundles, each recorded with the transaction manager first, and
 * ends it: completed when the create bundle was included; released when nothing was sent;
 * otherwise settled from the chain (`LaunchOutcome.settle`).
 */
export async function runLaunch(
  options: LaunchRunOptions,
  chain: ChainContext,
  txm: TxManager,
  job: LaunchJobRow,
  draft: DraftRow,
): Promise<void> {
  const { repository, vault, outcome } = options;
  const say = (message: string) => options.say(draft.ownerId, message);
  // Set once the first bundle is recorded: from then on only the chain says how it ended.
  let sent = false;
  // The builders the create bundle was sent to (those that were asked).
  let createSentTo = 0;
  try {
    const tokenInfo = draft.tokenInfo as TokenInfo;
    const config = draft.walletConfig as StoredWalletConfig;
    say(`Launching ${tokenInfo.name} (${tokenInfo.symbol})...`);
    if (!chain.launchpad)
      throw new ChainError(`no launchpad is configured for ${chain.profile.name}`);
    if (!draft.deployerAddress) throw new ChainError("the draft has no deployer wallet");
    const keys = await vault.forDraft(draft.id, ["deployer", "bundle", "tip"]);
    const keyOf = (purpose: "deployer" | "bundle" | "tip", address: string): Hex => {
      const key = keys.find(
        (k) => k.purpose === purpose && k.address.toLowerCase() === address.toLowerCase(),
      );
      if (!key) throw new ChainError(`the private key of ${purpose} wallet ${address} is missing`);
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
      `PASSED checks: deployer ${creator.address}, ${buyers.length} buying wallet${buyers.length === 1 ? "" : "s"}, creator buy ${bnbWords(preSale)}, tip ${bnbWords(tip)} from ${ownTipPayer?.address ?? "the deployer"}`,
    );

    if (!chain.trade)
      throw new ChainError(`no launchpad helper is configured for ${chain.profile.name}`);
    const { createArg, signature, listedLaunchFee } = await createArgsFor(chain, {
      creator,
      tokenInfo,
      say,
    });
    const gasPrice = await launchGasPrice(chain);

    const report = await launchToken({
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      launchpad: chain.launchpad,
      helper: chain.trade.helper,
      builders: chain.builders,
      creator,
      createArg,
      signature,
      listedLaunchFee,
      gasPrice,
      preSale,
      buyers,
      tipPayer: ownTipPayer ?? creator,
      tip,
      ...(chain.bundleTimeoutMs ? { submitTimeoutMs: chain.bundleTimeoutMs } : {}),
      blocksAhead: await bundleWindowBlocks(chain),
      onStep: async (message) => {
        const token = /^PASSED simulation: the token will be (0x[0-9a-fA-F]{40})/.exec(
          message,
        )?.[1];
        if (token) await repository.updateJob(job.id, { tokenAddress: token });
        say(message);
      },
      onAnswers: ({ index, head, maxBlockNumber, answers }) => {
        if (index === 0) createSentTo = answers.filter((a) => a.answer !== "skipped").length;
        options.sends?.note({
          ownerId: job.ownerId,
          kind: "launch",
          subject: job.id,
          head,
          maxBlockNumber,
          answers,
        });
      },
      // Recorded before it is sent; a bundle that cannot be recorded is not sent.
      onBundle: async (bundle) => {
        await record(repository, txm, job, bundle);
        if (bundle.index === 0) sent = true;
        await failpoint("launch.recorded");
      },
    });
    await failpoint("launch.landed");
    const first = report.bundles[0];
    if (first?.status !== "included") throw new ChainError("the create bundle was not included");
    say(
      `SUCCESS landed through ${first.builder ?? "a builder whose tip was not found"} in block ${first.blockNumber} (sent to ${createSentTo} builder${createSentTo === 1 ? "" : "s"})`,
    );
    await sayHashes(chain, first.blockNumber, creator.address, buyers, say);
    await outcome.complete(job, draft, {
      tokenAddress: report.token,
      blockNumber: first.blockNumber,
      atomicWallets: report.atomicWithCreate.length,
    });
  } catch (error) {
    const reason = reasonOf(error);
    if (!sent) {
      // Nothing was sent: nothing can have landed.
      await repository.release(job.id, draft.id, reason, createKey(job.id)).catch(() => {});
      say(`FAILED launch: ${reason}`);
      say(
        "ERROR nothing was charged again: the draft stays paid, fix the problem and execute it again",
      );
      return;
    }
    say(`ERROR ${reason}: checking on the chain whether the launch landed...`);
    await outcome.settle(txm, job, draft, reason);
  }
}

/**
 * Records a signed bundle's transactions under the job's keys (never broadcast). A wallet
 * with another transaction of ours still open at the same nonce refuses the record, and so
 * the bundle: said in words.
 */
async function record(
  repository: LaunchRepository,
  txm: TxManager,
  job: LaunchJobRow,
  bundle: SignedBundle,
): Promise<void> {
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
        if (!(await repository.lockRunning(tx, job.id)))
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

/** One line per transaction of ours in the create's block, with its hash. */
async function sayHashes(
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
      if (from === creator.toLowerCase() && tx.to?.toLowerCase() === chain.launchpad?.toLowerCase())
        say(`SUCCESS create transaction ${tx.hash}`);
      else if (buyerSet.has(from)) say(`SUCCESS buy by wallet ${tx.from}: ${tx.hash}`);
    }
  } catch {
    // The hashes are a courtesy; the launch itself is recorded below.
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
