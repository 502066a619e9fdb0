import {
  ChainError,
  InsufficientFundsError,
  keyAccount,
  prepareBump,
  submitBundle,
  TRANSFER_GAS,
} from "@bundler/chain";
import { type Address, getAddress, type Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import type { ReleaseLock } from "../../db/client.ts";
import { bundleWindowBlocks } from "../../lib/bundle-window.ts";
import type { ChainContext } from "../../lib/chain-context.ts";
import { failpoint } from "../../lib/failpoints.ts";
import type { KeyVault } from "../../lib/key-vault.ts";
import { SinglePass } from "../../lib/single-pass.ts";
import type { BuilderSends } from "../builders/builders.service.ts";
import { isFinal, type TxRow } from "../transactions/transactions.repository.ts";
import type { TxManager } from "../transactions/tx-manager.ts";
import type { BumperRepository, BumperRow, BumpRow } from "./bumper.repository.ts";

/** Bundles of one bump that may go unlanded in a row before the bumper stops, saying why. */
const MAX_ATTEMPTS = 5;

export interface BumperEngineOptions {
  /** How long one configured minute lasts (60,000 ms; tests shorten it). */
  minuteMs: number;
  /** What each bump's bundle pays its builder, wei. */
  tip: bigint;
  tryLock: (key: string) => Promise<ReleaseLock | null>;
  log?: (message: string) => void;
  /** Where each bump bundle's builder answers are recorded. */
  sends?: BuilderSends | undefined;
}

const tradeKeys = (bump: BumpRow) => `bump:${bump.bumperId}:${bump.index}:${bump.attempt}:`;
const moveKey = (bump: BumpRow) => `bump-move:${bump.bumperId}:${bump.index}:${bump.moveAttempt}`;
const feeOf = (rows: TxRow[]) => rows.reduce((sum, r) => sum + BigInt(r.fee ?? 0), 0n);

/**
 * Moves every bumper forward, once per block (`tick()`, the `bumper-tick` job). A bump is a
 * sequence of recorded steps, each under the bumper's lock:
 * 1. `trading`: buy, approval when needed and sell, signed at consecutive nonces, recorded by
 *    the transaction manager (never broadcast), then sent to the builders as one bundle with
 *    a tip. The attempt's rows end mined (the bump traded) or dropped once the chain passed
 *    the bundle's window; only then does a next attempt sign again, at the same nonces, so two
 *    attempts can never both land.
 * 2. `moving`: the next wallet's key is stored, then the wallet's BNB minus the gas goes to it
 *    through the transaction manager under a key per bump and attempt.
 * 3. `done`: the bump is counted, the next wallet is current, the next bump is due.
 * A process killed anywhere leaves a row and recorded transactions that the next pass, in any
 * process, finishes: nothing is signed twice for one step, and BNB only goes to wallets whose
 * keys are stored.
 */
export class BumperEngine {
  private readonly passes = new SinglePass(() => this.pass());

  constructor(
    private readonly repo: BumperRepository,
    private readonly vault: KeyVault,
    private readonly chain: ChainContext,
    private readonly txm: TxManager,
    private readonly options: BumperEngineOptions,
  ) {}

  /** What each bump's bundle pays its builder, wei. */
  get tip(): bigint {
    return this.options.tip;
  }

  /** One pass over every bumper with work; a call while a pass runs shares it. */
  tick(): Promise<void> {
    return this.passes.run();
  }

  /** No new passes; resolves when the current one is done. */
  stop(): Promise<void> {
    return this.passes.stop();
  }

  /** Runs `work` on one bumper under its lock (null: another worker holds it now). */
  async locked<T>(bumperId: string, work: () => Promise<T>): Promise<T | null> {
    const release = await this.options.tryLock(`bumper:${bumperId}`);
    if (!release) return null;
    try {
      return await work();
    } finally {
      await release();
    }
  }

  private async pass(): Promise<void> {
    for (const bumper of await this.repo.due(new Date())) {
      if (this.passes.isStopped) return;
      await this.locked(bumper.id, () => this.advance(bumper.id)).catch((error: Error) =>
        this.options.log?.(`bumper ${bumper.id}: ${error.message}`),
      );
    }
  }

  /** One step of one bumper (read again under its lock). */
  async advance(bumperId: string): Promise<void> {
    const bumper = await this.repo.byId(bumperId);
    if (!bumper) return;
    const open = await this.repo.openBump(bumper.id);
    if (open?.status === "trading") return this.trade(bumper, open);
    if (open?.status === "moving") return this.move(bumper, open);
    if (bumper.status !== "active") return;
    if (bumper.bumpsCompleted >= bumper.totalBumps) {
      await this.repo.transition(bumper.id, ["active"], { status: "completed", nextBumpAt: null });
      return;
    }
    if (bumper.nextBumpAt && bumper.nextBumpAt.getTime() > Date.now()) return;
    const bump = await this.repo.startBump(
      bumper.id,
      bumper.bumpsCompleted,
      bumper.currentWalletIndex,
      MAX_ATTEMPTS,
    );
    if (bump) await this.trade(bumper, bump);
  }

  private async trade(bumper: BumperRow, bump: BumpRow): Promise<void> {
    const rows = await this.txm.byKeyPrefix(tradeKeys(bump));
    if (rows.length === 0) {
      // Nothing of this attempt was recorded: nothing of it can land.
      if (bumper.status !== "active")
        return void (await this.repo.updateBump(bump.bumperId, bump.index, {
          status: "failed",
          error: "the bumper was stopped before this bump went out",
        }));
      return this.sendTrade(bumper, bump);
    }
    if (rows.some((r) => !isFinal(r.status))) return; // waits for the chain or the window
    const mined = rows.filter((r) => r.status === "mined" || r.status === "reverted");
    if (mined.length > 0) {
      const buy = rows.find((r) => r.key.endsWith(":buy"));
      const sell = rows.find((r) => r.key.endsWith(":sell"));
      const traded = sell?.status === "mined";
      // The builder's tip is a plain transfer at the bundle's price, signed per builder.
      const gas = (
        feeOf(rows) +
        this.options.tip +
        TRANSFER_GAS * BigInt(rows[0]?.gasPrice ?? 0)
      ).toString();
      await this.repo.updateBump(bump.bumperId, bump.index, {
        status: "moving",
        gas,
        block: mined[0]?.blockNumber ?? null,
        buyHash: buy?.txHash ?? null,
        sellHash: sell?.txHash ?? null,
        ...(traded
          ? {}
          : {
              error: `the bump's sell did not go through (${sell?.error ?? sell?.status})`,
              bought: "0",
              sold: "0",
            }),
      });
      return this.move(bumper, { ...bump, status: "moving", gas });
    }
    // Every transaction of the attempt was dropped: the bundle did not land.
    const reason = bump.error ?? rows.find((r) => r.error)?.error ?? "the bundle did not land";
    // Attempts count on across restarts (each restart starts at the next multiple).
    if ((bump.attempt + 1) % MAX_ATTEMPTS === 0) {
      await this.fail(bumper, bump, `${MAX_ATTEMPTS} bundles in a row did not land (${reason})`);
      return;
    }
    await this.repo.updateBump(bump.bumperId, bump.index, { attempt: bump.attempt + 1 });
  }

  /** Prices, signs, records and sends one attempt's bundle. */
  private async sendTrade(bumper: BumperRow, bump: BumpRow): Promise<void> {
    const { chain, txm } = this;
    if (!chain.launchpad || !chain.trade)
      return this.fail(bumper, bump, `trading is not configured for ${chain.profile.name}`);
    const wallet = await this.walletAccount(bumper.id, bump.walletIndex);
    const gasPrice = await txm.gasPrice();
    let prepared: Awaited<ReturnType<typeof prepareBump>>;
    try {
      prepared = await prepareBump(chain.client, {
        wallet: wallet.address,
        launchpad: chain.launchpad,
        ...chain.trade,
        token: getAddress(bumper.targetToken),
        funds: BigInt(bumper.buySize),
        gasPrice,
        // The builder's tip and its transfer's gas come out of the same wallet.
        extraCost: this.options.tip + TRANSFER_GAS * gasPrice,
      });
    } catch (error) {
      if (error instanceof InsufficientFundsError)
        return this.fail(
          bumper,
          bump,
          `the balance can no longer pay a bump: ${error.shortMessage}`,
        );
      if (error instanceof ChainError) return this.fail(bumper, bump, error.shortMessage);
      throw error;
    }
    const [nonce, head] = await Promise.all([
      chain.client.getTransactionCount({ address: wallet.address, blockTag: "pending" }),
      chain.client.getBlockNumber(),
    ]);
    const signed = await Promise.all(
      prepared.calls.map((call, i) =>
        wallet.signTransaction({
          type: "legacy",
          chainId: chain.chainId,
          nonce: nonce + i,
          gas: call.gas,
          gasPrice,
          ...call.request,
        }),
      ),
    );
    const maxBlockNumber = head + (await bundleWindowBlocks(chain));
    await this.repo.updateBump(bump.bumperId, bump.index, {
      tokens: prepared.tokens.toString(),
      bought: prepared.spent.toString(),
      sold: prepared.returned.toString(),
    });
    // Recorded before it is sent: a bundle that cannot be recorded is not sent.
    await txm.recordBundle(
      prepared.calls.map((call, i) => ({
        key: `${tradeKeys(bump)}${call.role}`,
        purpose: "bumper-trade" as const,
        ownerId: bumper.ownerId,
        subject: bumper.id,
        raw: signed[i] as Hex,
        reason: `bump ${bump.index + 1}: ${call.role}`,
      })),
      maxBlockNumber,
    );
    await failpoint("bumper.recorded");
    try {
      await submitBundle({
        builders: chain.builders,
        txs: signed,
        roles: prepared.calls.map((c) => `the bump's ${c.role}`),
        tip: {
          account: wallet,
          value: this.options.tip,
          nonce: nonce + signed.length,
          gasPrice,
          chainId: chain.chainId,
        },
        maxBlockNumber,
        ...(chain.bundleTimeoutMs ? { timeoutMs: chain.bundleTimeoutMs } : {}),
        ...(this.options.sends
          ? {
              onAnswers: this.options.sends.recorder({
                ownerId: bumper.ownerId,
                kind: "bump",
                subject: bumper.id,
                head,
                maxBlockNumber,
              }),
            }
          : {}),
      });
    } catch (error) {
      // Every builder refused: the recorded rows drop once the window passes; say why.
      const reason = error instanceof ChainError ? error.shortMessage : (error as Error).message;
      await this.repo.updateBump(bump.bumperId, bump.index, { error: reason });
    }
    await failpoint("bumper.submitted");
  }

  /** Moves the wallet's BNB (minus the gas) to the next wallet, whose key is stored first. */
  private async move(bumper: BumperRow, bump: BumpRow): Promise<void> {
    const next = bump.walletIndex + 1;
    const to = await this.ensureWallet(bumper, next);
    const key = moveKey(bump);
    const [row] = await this.txm.find([key]);
    const tradeGas = BigInt(bump.gas ?? 0);
    if (!row) {
      const wallet = await this.walletAccount(bumper.id, bump.walletIndex);
      const gasPrice = await this.txm.gasPrice();
      const balance = await this.chain.client.getBalance({ address: wallet.address });
      const value = balance - TRANSFER_GAS * gasPrice;
      if (value <= 0n) {
        // Nothing left to move: the bump still counts; the next wallet starts empty.
        await this.repo.finishBump(bumper, bump.index, next, tradeGas, this.intervalMs(bumper));
        return;
      }
      await this.txm.send([
        {
          key,
          purpose: "bumper-move",
          ownerId: bumper.ownerId,
          subject: bumper.id,
          account: wallet,
          to,
          value,
          gas: TRANSFER_GAS,
          gasPrice,
          reason: `bump ${bump.index + 1}: on to the next wallet`,
        },
      ]);
      return;
    }
    if (!isFinal(row.status)) return;
    if (row.status === "mined") {
      await this.repo.finishBump(
        bumper,
        bump.index,
        next,
        tradeGas + BigInt(row.fee ?? 0),
        this.intervalMs(bumper),
      );
      return;
    }
    await this.repo.updateBump(bump.bumperId, bump.index, { moveAttempt: bump.moveAttempt + 1 });
  }

  /** Ends a bump that cannot go on and stops its bumper, saying why on the bumper. */
  private async fail(bumper: BumperRow, bump: BumpRow, reason: string): Promise<void> {
    await this.repo.updateBump(bump.bumperId, bump.index, { status: "failed", error: reason });
    await this.repo.transition(bumper.id, ["active"], {
      status: "stopped",
      stopReason: reason,
      nextBumpAt: null,
    });
    this.options.log?.(`bumper ${bumper.id} stopped: ${reason}`);
  }

  private intervalMs(bumper: BumperRow): number {
    return Number(bumper.intervalMinutes) * this.options.minuteMs;
  }

  /** Wallet `index` of the bumper, created (key stored first) when it does not exist yet. */
  async ensureWallet(bumper: BumperRow, index: number): Promise<Address> {
    const existing = await this.repo.walletAt(bumper.id, index);
    if (existing) return getAddress(existing.address);
    await this.repo
      .transaction(async (tx) => {
        const [stored] = await this.vault.store(
          [{ privateKey: generatePrivateKey(), purpose: "bumper" }],
          { ownerId: bumper.ownerId },
          tx,
        );
        if (!stored) throw new Error("no key was stored");
        // A concurrent creator won: roll this key back with the transaction.
        if (!(await this.repo.addWallet(tx, bumper.id, index, stored.address)))
          throw new WalletExists();
      })
      .catch((error: unknown) => {
        if (!(error instanceof WalletExists)) throw error;
      });
    const row = await this.repo.walletAt(bumper.id, index);
    if (!row) throw new Error(`bumper wallet ${index} was not stored`);
    return getAddress(row.address);
  }

  async walletAccount(bumperId: string, index: number) {
    const row = await this.repo.walletAt(bumperId, index);
    if (!row) throw new Error(`bumper ${bumperId} has no wallet ${index}`);
    const key = await this.vault.find(row.address, "bumper");
    if (!key) throw new Error(`the key of bumper wallet ${row.address} is missing`);
    return keyAccount(key);
  }
}

class WalletExists extends Error {}
