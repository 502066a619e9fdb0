import { rpcBatch } from "@bundler/chain";
import { type Address, getAddress } from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import { failpoint } from "../../lib/failpoints.ts";
import {
  type DbOrTx,
  isFinal,
  type OpenTx,
  type TransactionsRepository,
  type TxRow,
  type TxSummary,
} from "./transactions.repository.ts";
import { broadcast } from "./tx-broadcast.ts";
import type { Receipt, TxContext } from "./tx-context.ts";
import { type Fate, fatesOf, retryNonces } from "./tx-fates.ts";
import type { BundleTx, BusyGuard, TxIntent } from "./tx-intent.ts";
import { reconcilePass } from "./tx-reconcile.ts";
import { pendingNonces, recordBundle, recordIntents } from "./tx-record.ts";
import { landedAfterDrop } from "./tx-unmined.ts";

// What callers hand the manager, defined beside the parts that read it.
export {
  type BundleTx,
  type BusyGuard,
  RetryRefused,
  type TxIntent,
  type TxPurpose,
} from "./tx-intent.ts";

export interface TxManagerOptions {
  /** An open transaction the node no longer holds is dropped after this long (default 10 min). */
  dropAfterMs?: number;
  /** A sent transaction not mined after this long is broadcast again (default 10 s). */
  rebroadcastAfterMs?: number;
  log?: (message: string) => void;
}

/**
 * The one way the server sends a transaction (modelled on Chainlink's transaction manager):
 * a nonce reserved per sending address in the database (two workers never sign two
 * transactions with one nonce), the signed transaction recorded with its purpose and owner
 * before it is broadcast, idempotent by the caller's key, rebroadcast and reconciled against
 * receipts, and a final state with a reason for everything: mined, reverted (with the
 * reason), replaced (its nonce was used by another transaction), dropped (the node refused or
 * forgot it for longer than `dropAfterMs`, or a bundle's window passed). A dropped
 * transaction's nonce is handed out again, so whatever is sent next from that address
 * replaces it: the two can never both land.
 */
export class TxManager {
  private pass: Promise<TxRow[]> | null = null;
  private readonly listeners: Array<(rows: TxRow[]) => void | Promise<void>> = [];
  private readonly dropAfterMs: number;
  private readonly rebroadcastAfterMs: number;
  private readonly ctx: TxContext;

  constructor(
    private readonly repo: TransactionsRepository,
    private readonly chain: ChainContext,
    private readonly options: TxManagerOptions = {},
  ) {
    this.dropAfterMs = options.dropAfterMs ?? 10 * 60_000;
    this.rebroadcastAfterMs = options.rebroadcastAfterMs ?? 10_000;
    this.ctx = { repo, chain, log: options.log };
  }

  /** Called with the rows a reconcile pass of this process moved to a final state. */
  onFinal(listener: (rows: TxRow[]) => void | Promise<void>): void {
    this.listeners.push(listener);
  }

  /** The node's gas price, at least the profile's floor. */
  async gasPrice(): Promise<bigint> {
    const price = await this.chain.client.getGasPrice();
    const floor = this.chain.profile.gasPriceFloor;
    if (price < floor) return floor;
    return price;
  }

  /**
   * Records every intent whose key is new (nonce reserved, signed, written in one database
   * transaction), then broadcasts what this call recorded. Answers the row of every intent,
   * in order, whether this call or an earlier one recorded it.
   */
  async send(intents: TxIntent[]): Promise<TxRow[]> {
    return (await this.record(intents)).rows as TxRow[];
  }

  /**
   * `send`, except that an intent whose sender has another request's transaction in flight
   * (open, not one of `guard.ownKeys`, its nonce at or above the sender's mined nonce) is not
   * recorded: the sender is answered in `busy` with that transaction instead. The check is made
   * under the sender's lock, so of two different requests for one wallet arriving at once, one
   * is sent and the other refused (both sent, the second would revert and cost its gas).
   */
  async sendUnlessBusy(
    intents: TxIntent[],
    guard: BusyGuard,
  ): Promise<{ rows: TxRow[]; busy: Map<Address, OpenTx> }> {
    const { rows, busy } = await this.record(intents, guard);
    return { rows: rows.filter((row): row is TxRow => row !== undefined), busy };
  }

  /**
   * `sendUnlessBusy` for a bundle: each new intent's nonce reserved, signed and recorded with
   * `validUntilBlock` under its sender's lock, never broadcast. The caller submits `created`
   * (what this call recorded; rows an earlier identical call recorded are its to submit) to
   * the builders; each ends mined, or dropped once the chain passes `validUntilBlock`. An
   * intent may retry an earlier attempt (`retries`: a sale sent again after its bundle was
   * dropped), checked as any retry is.
   */
  async recordBundleUnlessBusy(
    intents: TxIntent[],
    guard: BusyGuard,
    validUntilBlock: bigint,
  ): Promise<{ rows: TxRow[]; created: TxRow[]; busy: Map<Address, OpenTx> }> {
    if (intents.some((i) => i.after !== undefined))
      throw new Error("a bundle's transactions do not wait for others");
    const { rows, created, busy } = await this.record(intents, guard, validUntilBlock);
    return { rows: rows.filter((row): row is TxRow => row !== undefined), created, busy };
  }

  /**
   * Notes why an open bundle's transactions may not land (every builder refused it): the
   * reason their drop gives once the chain passes the bundle's window.
   */
  async noteBundleRefusal(keys: string[], reason: string): Promise<void> {
    const rows = await this.repo.byKeys(keys);
    await this.repo.noteError(
      rows.filter((row) => row.validUntilBlock !== null).map((row) => row.id),
      reason,
    );
  }

  private async record(
    intents: TxIntent[],
    guard?: BusyGuard,
    validUntilBlock?: bigint,
  ): Promise<{ rows: Array<TxRow | undefined>; created: TxRow[]; busy: Map<Address, OpenTx> }> {
    if (intents.length === 0) return { rows: [], created: [], busy: new Map<Address, OpenTx>() };
    const froms = [...new Set(intents.map((i) => getAddress(i.account.address)))];
    const defaultPrice = intents.some((i) => i.gasPrice === undefined) ? await this.gasPrice() : 0n;
    const pending = await pendingNonces(this.chain.rpcUrl, froms);
    const pinned = await retryNonces(this.ctx, intents);
    const { rows, created, busy } = await recordIntents(this.ctx, intents, {
      froms,
      pending,
      pinned,
      defaultPrice,
      guard,
      validUntilBlock,
    });
    await failpoint("tx.recorded");
    // A bundle's are submitted by the caller, never broadcast.
    if (validUntilBlock === undefined) await broadcast(this.ctx, created);
    const answered = rows.filter((row): row is TxRow => row !== undefined);
    const byKey = new Map(
      (await this.repo.byKeys(answered.map((r) => r.key))).map((r) => [r.key, r]),
    );
    return {
      rows: rows.map((r) => (r ? (byKey.get(r.key) ?? r) : undefined)),
      created: created.map((r) => byKey.get(r.key) ?? r),
      busy,
    };
  }

  /**
   * Records a bundle's signed transactions before it is submitted (a caller that cannot record
   * must not submit). They are never broadcast: each ends mined, or dropped once the chain
   * passes `validUntilBlock` without it.
   */
  async recordBundle(
    txs: BundleTx[],
    validUntilBlock: bigint,
    /** Runs first in the recording's database transaction; throwing records nothing. */
    guard?: (tx: DbOrTx) => Promise<void>,
  ): Promise<TxRow[]> {
    return recordBundle(this.ctx, txs, validUntilBlock, guard);
  }

  find(keys: string[]): Promise<TxRow[]> {
    return this.repo.byKeys(keys);
  }

  byKeyPrefix(prefix: string): Promise<TxRow[]> {
    return this.repo.byKeyPrefix(prefix);
  }

  bySubjects(subjects: string[]): Promise<TxSummary[]> {
    return this.repo.bySubjects(subjects);
  }

  /** `bySubjects` with only the newest step of each step sequence (see the repository). */
  latestStepsBySubjects(subjects: string[]): Promise<TxSummary[]> {
    return this.repo.latestStepsBySubjects(subjects);
  }

  /** What the manager recorded for these hashes (hashes it never signed are absent). */
  byHashes(hashes: string[]): Promise<TxRow[]> {
    return this.repo.byHashes(hashes);
  }

  /** One owner's transactions from or to `address`, newest first, at most `limit`. */
  involving(address: Address, ownerId: string, limit: number): Promise<TxRow[]> {
    return this.repo.involving(getAddress(address), ownerId, limit);
  }

  /**
   * Reconciles until every transaction of `keys` is final, answering them. A pass that fails
   * (the node or the database away) is retried after `pollMs`; `timeoutMs` bounds the wait.
   */
  async waitFinal(
    keys: string[],
    { pollMs = 500, timeoutMs = 10 * 60_000 }: { pollMs?: number; timeoutMs?: number } = {},
  ): Promise<TxRow[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows = await this.repo.byKeys(keys);
      if (rows.every((row) => isFinal(row.status))) return rows;
      if (Date.now() > deadline)
        throw new Error(`transactions still open after ${Math.round(timeoutMs / 1000)} s`);
      await this.reconcile().catch((error: Error) =>
        this.options.log?.(`transactions: ${error.message}`),
      );
      if ((await this.repo.byKeys(keys)).every((row) => isFinal(row.status)))
        return this.repo.byKeys(keys);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /**
   * Of `keys`, those recorded as mined whose receipt the node no longer has (their block was
   * dropped: a reorg, or the local builder reverting a failed bundle's block) go back to sent,
   * for the next pass to decide again: mined again, replaced, or, for a bundle past its
   * window, dropped. Answers the keys reopened.
   */
  async recheck(keys: string[]): Promise<string[]> {
    const rows = (await this.repo.byKeys(keys)).filter((row) => row.status === "mined");
    if (rows.length === 0) return [];
    const answers = await rpcBatch<unknown>(
      this.chain.rpcUrl,
      rows.map((row) => ({ method: "eth_getTransactionReceipt", params: [row.txHash] })),
    );
    // Only a clear "no such receipt" reopens a row; an error decides nothing.
    const gone = rows.filter((_, i) => answers[i] && !answers[i]?.error && !answers[i]?.result);
    await this.repo.reopen(gone.map((row) => row.id));
    for (const row of gone)
      this.options.log?.(
        `transactions: ${row.txHash} was mined in a block the chain dropped; decided again`,
      );
    return gone.map((row) => row.key);
  }

  /**
   * One pass over every open transaction (a call while a pass runs shares it): receipts,
   * nonces and the head in one batch; mined and reverted ones are settled (two blocks past their
   * receipt, `MINED_CONFIRMATIONS`: money is decided on "mined"), those whose nonce
   * another transaction used are replaced, a bundle's past its window and the ones the node
   * keeps refusing are dropped, the rest rebroadcast when due. Answers the rows this pass
   * moved to a final state (and tells the listeners).
   */
  reconcile(): Promise<TxRow[]> {
    if (!this.pass)
      this.pass = this.reconcileOnce().finally(() => {
        this.pass = null;
      });
    return this.pass;
  }

  private async reconcileOnce(): Promise<TxRow[]> {
    const finished = await reconcilePass(this.ctx, {
      dropAfterMs: this.dropAfterMs,
      rebroadcastAfterMs: this.rebroadcastAfterMs,
    });
    if (finished.length > 0)
      for (const listener of this.listeners)
        await Promise.resolve(listener(finished)).catch((error: Error) =>
          this.options.log?.(`transactions: a listener failed: ${error.message}`),
        );
    return finished;
  }

  /**
   * Of these dropped transactions, those that landed after all (a receipt now) are recorded
   * mined (or reverted) from now on; answers the rows moved. A bundle's dropped transaction is
   * not watched by the reconcile (it was never broadcast): a caller that finds one landed
   * (`fates`) records it here before it acts on it.
   */
  async adoptLanded(rows: Array<Pick<TxRow, "txHash">>): Promise<TxRow[]> {
    const dropped = (await this.repo.byHashes(rows.map((row) => row.txHash))).filter(
      (row) => row.status === "dropped",
    );
    if (dropped.length === 0) return [];
    const answers = await rpcBatch<Receipt | null>(
      this.chain.rpcUrl,
      dropped.map((row) => ({ method: "eth_getTransactionReceipt", params: [row.txHash] })),
    );
    return landedAfterDrop(
      this.ctx,
      dropped.flatMap((row, i) => {
        const receipt = answers[i]?.result;
        return receipt ? [{ row, receipt }] : [];
      }),
    );
  }

  /**
   * What can still become of final transactions that were not mined: "landed" (a receipt:
   * mined after all, before a reconcile recorded it), "may land" (its nonce still unused: a
   * pool or a builder may hold it), "settling" (its nonce used by another only in the last
   * blocks: decided later) or "never" (it reverted, or its nonce went to another, settled).
   * Throws when the node cannot say.
   */
  async fates(
    rows: Array<Pick<TxSummary, "key" | "txHash" | "from" | "nonce" | "status">>,
  ): Promise<Fate[]> {
    return fatesOf(this.chain.rpcUrl, rows);
  }
}
