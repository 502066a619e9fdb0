import { randomUUID } from "node:crypto";
import { getTxStatuses, rpcBatch } from "@bundler/chain";
import {
  type Address,
  getAddress,
  type Hex,
  keccak256,
  type LocalAccount,
  parseTransaction,
  recoverTransactionAddress,
  type TransactionSerialized,
} from "viem";
import type { ChainContext } from "../../lib/chain-context.ts";
import { failpoint } from "../../lib/failpoints.ts";
import {
  type DbOrTx,
  isFinal,
  type NewTxRow,
  OPEN_STATUSES,
  type OpenTx,
  type TransactionsRepository,
  type TxRow,
  type TxStatusValue,
  type TxSummary,
} from "./transactions.repository.ts";

/** What a transaction is for; the owner sees it, and `npm run` reports count by it. */
export type TxPurpose =
  | "payment-refund"
  | "payment-sweep"
  | "dispersal-hop"
  | "dispersal-return"
  | "dispersal-refund"
  | "delayed-buy"
  | "launch"
  | "bundle-approve"
  | "bundle-sell"
  | "bundle-empty"
  | "bumper-trade"
  | "bumper-move"
  | "referral-payout"
  | "faucet";

/** One transaction a caller wants sent, exactly once per `key`. */
export interface TxIntent {
  /** Idempotency key: sending the same key again answers the first transaction, whatever it became. */
  key: string;
  purpose: TxPurpose;
  ownerId?: string | null;
  subject?: string | null;
  account: LocalAccount;
  to: Address;
  value: bigint;
  data?: Hex;
  /** 21,000 for a plain transfer. */
  gas: bigint;
  /** Defaults to the node's price, at least the profile's floor. */
  gasPrice?: bigint;
  reason?: string | null;
  /**
   * The key of an earlier transaction this one waits for (the one that funds its sender): it
   * is signed and recorded now, and broadcast as soon as that one is mined, by the reconcile
   * that sees it mined, with no signing left on that path. If that one ends any other way,
   * this one is dropped unless the node holds it.
   */
  after?: string;
  /**
   * The key of the earlier attempt this one sends again (a refund or a payout whose transfer
   * was dropped or replaced): the two must never both land. Refused while that one is open or
   * once it landed; while its nonce is unused this one takes that very nonce, so that only one
   * of them can ever be mined.
   */
  retries?: string;
}

/**
 * A retry (`retries`) that may not be sent now: its earlier attempt is on its way or landed,
 * or another transaction holds that attempt's nonce. Nothing was recorded.
 */
export class RetryRefused extends Error {}

/** A signed transaction of a bundle: recorded before the bundle goes out, never broadcast. */
export interface BundleTx {
  key: string;
  purpose: TxPurpose;
  ownerId?: string | null;
  subject?: string | null;
  raw: Hex;
  reason?: string | null;
}

/** What makes a wallet busy for `sendUnlessBusy`. */
export interface BusyGuard {
  /** This request's own keys: an identical request recording them right now is not "busy". */
  ownKeys: Set<string>;
  /** Each sender's mined nonce: an open transaction below it has landed already. */
  minedNonces: Map<Address, number>;
}

export interface TxManagerOptions {
  /** An open transaction the node no longer holds is dropped after this long (default 10 min). */
  dropAfterMs?: number;
  /** A sent transaction not mined after this long is broadcast again (default 10 s). */
  rebroadcastAfterMs?: number;
  log?: (message: string) => void;
}

type Receipt = { status: Hex; blockNumber: Hex; gasUsed: Hex; effectiveGasPrice?: Hex };

/** Blocks a nonce must have been used for before its unmined transaction counts as replaced. */
const REPLACED_CONFIRMATIONS = 2n;

/** Node answers that mean "I have it" (or had it) rather than "I refuse it". */
const BENIGN_REFUSAL = /already known|known transaction|nonce too low|already imported/i;

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

  constructor(
    private readonly repo: TransactionsRepository,
    private readonly chain: ChainContext,
    private readonly options: TxManagerOptions = {},
  ) {
    this.dropAfterMs = options.dropAfterMs ?? 10 * 60_000;
    this.rebroadcastAfterMs = options.rebroadcastAfterMs ?? 10_000;
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

  private async record(
    intents: TxIntent[],
    guard?: BusyGuard,
  ): Promise<{ rows: Array<TxRow | undefined>; busy: Map<Address, OpenTx> }> {
    const busy = new Map<Address, OpenTx>();
    if (intents.length === 0) return { rows: [], busy };
    const froms = [...new Set(intents.map((i) => getAddress(i.account.address)))];
    const defaultPrice = intents.some((i) => i.gasPrice === undefined) ? await this.gasPrice() : 0n;
    const pending = await this.pendingNonces(froms);
    const pinned = await this.retryNonces(intents);
    const { rows, created } = await this.repo.underAddressLocks(froms, async (tx) => {
      const keys = intents.flatMap((i) => (i.after ? [i.key, i.after] : [i.key]));
      const known = new Map(
        (await this.repo.byKeys([...new Set(keys)], tx)).map((r) => [r.key, r]),
      );
      // From the lowest nonce this call may take: a retry's pinned one can be below pending.
      const floor = new Map(froms.map((from) => [from, pending.get(from) ?? 0]));
      for (const intent of intents) {
        const nonce = pinned.get(intent.key);
        const from = getAddress(intent.account.address);
        if (nonce !== undefined) floor.set(from, Math.min(floor.get(from) ?? 0, nonce));
      }
      const taken = await this.repo.liveNoncesOf(tx, floor);
      // Busy: another request's transaction sent since the caller read the mined nonces, on
      // its way or landed already (then the caller's amounts are out of date).
      if (guard)
        for (const row of await this.repo.liveFrom(
          tx,
          new Map(froms.map((from) => [from, guard.minedNonces.get(from) ?? 0])),
        ))
          if (!guard.ownKeys.has(row.key)) busy.set(getAddress(row.from), row);
      const fresh: NewTxRow[] = [];
      const freshIds = new Map<string, string>();
      for (const intent of intents) {
        if (known.has(intent.key) || freshIds.has(intent.key)) continue;
        // What it waits for: recorded earlier, or earlier in this call.
        const afterId =
          intent.after === undefined
            ? null
            : (known.get(intent.after)?.id ?? freshIds.get(intent.after) ?? null);
        if (intent.after !== undefined && !afterId)
          throw new Error(`${intent.key} waits for ${intent.after}, which was never recorded`);
        const from = getAddress(intent.account.address);
        if (busy.has(from)) continue;
        const used = taken.get(from) as Set<number>;
        let nonce = pending.get(from) ?? 0;
        const retried = pinned.get(intent.key);
        if (retried !== undefined) {
          // Another of ours took the nonce meanwhile: if that one fails, the dropped attempt
          // could still land, so the retry waits until it is settled.
          if (used.has(retried))
            throw new RetryRefused(
              `${intent.key} waits: another transaction holds nonce ${retried} of ${from}`,
            );
          nonce = retried;
        } else while (used.has(nonce)) nonce++;
        used.add(nonce);
        const gasPrice = intent.gasPrice ?? defaultPrice;
        const rawTx = await intent.account.signTransaction({
          type: "legacy",
          chainId: this.chain.chainId,
          nonce,
          to: intent.to,
          value: intent.value,
          gas: intent.gas,
          gasPrice,
          ...(intent.data ? { data: intent.data } : {}),
        });
        const id = randomUUID();
        freshIds.set(intent.key, id);
        fresh.push({
          id,
          key: intent.key,
          purpose: intent.purpose,
          ownerId: intent.ownerId ?? null,
          subject: intent.subject ?? null,
          from,
          to: getAddress(intent.to),
          value: intent.value.toString(),
          nonce,
          gas: intent.gas,
          gasPrice: gasPrice.toString(),
          rawTx,
          txHash: keccak256(rawTx),
          reason: intent.reason ?? null,
          afterId,
        });
      }
      // A retry signed at its dropped attempt's nonce with the same price, recipient and value
      // is that very transaction (same hash): the dropped row is recorded again under the new
      // key, as `recordBundle` does, and the rows signed to wait for it point at that row.
      const dropped = await this.repo.droppedHashes(
        tx,
        fresh.map((row) => row.txHash),
      );
      const inserted: TxRow[] = [];
      const renamed = new Map<string, string>();
      for (const { id, ...row } of fresh.filter((r) => dropped.has(r.txHash))) {
        const retaken = await this.repo.retakeDropped(tx, row);
        if (!retaken) continue;
        inserted.push(retaken);
        renamed.set(id as string, retaken.id);
      }
      inserted.push(
        ...(await this.repo.insert(
          tx,
          fresh
            .filter((row) => !dropped.has(row.txHash))
            .map((row) =>
              row.afterId && renamed.has(row.afterId)
                ? { ...row, afterId: renamed.get(row.afterId) as string }
                : row,
            ),
        )),
      );
      const statusOf = new Map([...known.values()].map((row) => [row.id, row.status]));
      for (const row of inserted) known.set(row.key, row);
      // One that waits goes out now only if what it waits for is mined already.
      const ready = inserted.filter((row) => !row.afterId || statusOf.get(row.afterId) === "mined");
      return { rows: intents.map((i) => known.get(i.key)), created: ready };
    });
    await failpoint("tx.recorded");
    await this.broadcast(created);
    const answered = rows.filter((row): row is TxRow => row !== undefined);
    const byKey = new Map(
      (await this.repo.byKeys(answered.map((r) => r.key))).map((r) => [r.key, r]),
    );
    return { rows: rows.map((r) => (r ? (byKey.get(r.key) ?? r) : undefined)), busy };
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
    const decoded = await Promise.all(
      txs.map(async (t) => {
        const parsed = parseTransaction(t.raw);
        const from = getAddress(
          await recoverTransactionAddress({
            serializedTransaction: t.raw as TransactionSerialized,
          }),
        );
        return { t, parsed, from };
      }),
    );
    return this.repo.underAddressLocks(
      decoded.map((d) => d.from),
      async (tx) => {
        await guard?.(tx);
        const rows: NewTxRow[] = decoded.map(({ t, parsed, from }) => ({
          key: t.key,
          purpose: t.purpose,
          ownerId: t.ownerId ?? null,
          subject: t.subject ?? null,
          from,
          to: parsed.to ? getAddress(parsed.to) : null,
          value: (parsed.value ?? 0n).toString(),
          nonce: parsed.nonce ?? 0,
          gas: parsed.gas ?? 0n,
          gasPrice: (parsed.gasPrice ?? 0n).toString(),
          rawTx: t.raw,
          txHash: keccak256(t.raw),
          reason: t.reason ?? null,
          validUntilBlock,
        }));
        // A bundle signed again on a chain that has not moved (a relaunch after one that never
        // went out) holds some of the very transactions already recorded and dropped: those
        // rows are recorded again under the new keys (their hash is unique); the rest inserted.
        const dropped = await this.repo.droppedHashes(
          tx,
          rows.map((row) => row.txHash),
        );
        const recorded: TxRow[] = [];
        for (const row of rows.filter((r) => dropped.has(r.txHash))) {
          const retaken = await this.repo.retakeDropped(tx, row);
          if (retaken) recorded.push(retaken);
        }
        recorded.push(
          ...(await this.repo.insert(
            tx,
            rows.filter((r) => !dropped.has(r.txHash)),
          )),
        );
        const order = new Map(rows.map((row, i) => [row.key, i]));
        return recorded.sort((a, b) => (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0));
      },
    );
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
   * nonces and the head in one batch; mined and reverted ones are settled, those whose nonce
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
    // Without the signed bytes: only the few due for a rebroadcast need them (`broadcast`).
    // A dropped one can still land from a pool that kept it: it is watched, never sent again,
    // until a receipt (mined after all) or its nonce used by another (replaced) settles it.
    const [all, watched] = await Promise.all([this.repo.open(), this.repo.watchedDropped()]);
    if (all.length === 0 && watched.length === 0) return [];
    // One signed ahead whose predecessor is open was never broadcast (it goes out only once
    // that one is settled): it has no receipt or nonce to read, and waits for that one.
    const ids = new Set(all.map((row) => row.id));
    const isHeld = (row: OpenTx) =>
      row.status === "signed" && row.afterId !== null && ids.has(row.afterId);
    const held = all.filter(isHeld);
    const open = all.filter((row) => !isHeld(row));
    const froms = [...new Set([...open, ...watched].map((row) => row.from))];
    const answers = await rpcBatch<unknown>(this.chain.rpcUrl, [
      { method: "eth_blockNumber", params: [] },
      ...[...open, ...watched].map((row) => ({
        method: "eth_getTransactionReceipt",
        params: [row.txHash],
      })),
      ...froms.map((from) => ({ method: "eth_getTransactionCount", params: [from, "latest"] })),
    ]);
    const head = BigInt((answers[0]?.result as Hex | undefined) ?? "0x0");
    const minedNonce = new Map(
      froms.map((from, i) => {
        const answer = answers[1 + open.length + watched.length + i];
        if (!answer?.result) throw new Error(`could not read the nonce of ${from}`);
        return [from, Number(BigInt(answer.result as Hex))];
      }),
    );

    const finished: TxRow[] = [];
    const finish = async (
      rows: OpenTx[],
      values: Parameters<TransactionsRepository["finish"]>[1],
    ) => {
      finished.push(
        ...(await this.repo.finish(
          rows.map((r) => r.id),
          values,
        )),
      );
    };

    // Mined rows are finished in groups of one block and fee: one UPDATE for a whole batch.
    const mined = new Map<string, { rows: OpenTx[]; blockNumber: bigint; fee: bigint }>();
    const addMined = (row: OpenTx, receipt: Receipt) => {
      const blockNumber = BigInt(receipt.blockNumber);
      const fee = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice ?? row.gasPrice);
      const group = mined.get(`${blockNumber}:${fee}`);
      if (group) group.rows.push(row);
      else mined.set(`${blockNumber}:${fee}`, { rows: [row], blockNumber, fee });
    };
    const reverted: Array<{ row: OpenTx; receipt: Receipt }> = [];
    const replaced: OpenTx[] = [];
    const stale: OpenTx[] = [];
    const orphaned: OpenTx[] = [];
    const rebroadcast: OpenTx[] = [];
    const awaited = await this.awaited([...open, ...held], open, answers.slice(1));
    for (const row of held) {
      const state = awaited.get(row.afterId as string);
      if (state === "mined") rebroadcast.push(row);
      else if (state === "failed") orphaned.push(row);
    }
    for (const [i, row] of open.entries()) {
      const answer = answers[1 + i];
      if (answer?.error) continue; // unsure: decide next pass
      const receipt = answer?.result as Receipt | null | undefined;
      if (receipt) {
        if (receipt.status === "0x1") addMined(row, receipt);
        else reverted.push({ row, receipt });
        continue;
      }
      if ((minedNonce.get(row.from) ?? 0) > row.nonce) {
        replaced.push(row);
        continue;
      }
      const waitingFor = row.status === "signed" && row.afterId ? awaited.get(row.afterId) : null;
      if (waitingFor === "open") continue;
      if (waitingFor === "failed") {
        orphaned.push(row);
        continue;
      }
      if (row.validUntilBlock !== null) {
        if (head > row.validUntilBlock)
          await finish([row], {
            status: "dropped",
            error: `the bundle was not included by block ${row.validUntilBlock}`,
          });
        continue;
      }
      const age = Date.now() - row.createdAt.getTime();
      if (age > this.dropAfterMs) stale.push(row);
      else if (
        row.status === "signed" ||
        !row.lastBroadcastAt ||
        Date.now() - row.lastBroadcastAt.getTime() > this.rebroadcastAfterMs
      )
        rebroadcast.push(row);
    }

    const landed: Array<{ row: OpenTx; receipt: Receipt }> = [];
    const reused: OpenTx[] = [];
    for (const [i, row] of watched.entries()) {
      const answer = answers[1 + open.length + i];
      if (!answer || answer.error) continue;
      const receipt = answer.result as Receipt | null | undefined;
      if (receipt) landed.push({ row, receipt });
      else if ((minedNonce.get(row.from) ?? 0) > row.nonce) reused.push(row);
    }

    // One read again for both: open ones whose nonce shows used, and watched dropped ones.
    const again = await this.confirmReplaced([...replaced, ...reused], head);
    const wasDropped = new Set(reused.map((row) => row.id));
    const confirmed = {
      mined: again.mined.filter(({ row }) => !wasDropped.has(row.id)),
      replaced: again.replaced.filter((row) => !wasDropped.has(row.id)),
    };
    landed.push(...again.mined.filter(({ row }) => wasDropped.has(row.id)));
    for (const { row, receipt } of confirmed.mined) {
      if (receipt.status === "0x1") addMined(row, receipt);
      else reverted.push({ row, receipt });
    }
    for (const group of mined.values())
      await finish(group.rows, {
        status: "mined",
        error: null,
        blockNumber: group.blockNumber,
        fee: group.fee,
      });

    if (reverted.length > 0) {
      const statuses = await getTxStatuses(this.chain.rpcUrl, {
        hashes: reverted.map(({ row }) => row.txHash as Hex),
      });
      for (const [i, { row, receipt }] of reverted.entries()) {
        const status = statuses[i];
        await finish([row], {
          status: "reverted",
          error: status?.status === "failed" ? status.reason : "execution reverted",
          blockNumber: BigInt(receipt.blockNumber),
          fee: BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice ?? row.gasPrice),
        });
      }
    }
    for (const row of confirmed.replaced)
      await finish([row], {
        status: "replaced",
        error: `nonce ${row.nonce} of ${row.from} was used by another transaction`,
      });
    // What the watch decided: a dropped one whose nonce went to another is replaced (not told
    // to the listeners: it had failed and still has); one that landed is mined after all.
    await this.repo.finish(
      again.replaced.filter((row) => wasDropped.has(row.id)).map((row) => row.id),
      { status: "replaced", error: "dropped, then its nonce was used by another transaction" },
      ["dropped"],
    );
    const replacedNow = new Set(confirmed.replaced.map((row) => row.id));
    const nonceHeld = new Set(
      open.filter((row) => !replacedNow.has(row.id)).map((row) => `${row.from}:${row.nonce}`),
    );
    finished.push(
      ...(await this.landedAfterDrop(
        landed.filter(({ row }) => !nonceHeld.has(`${row.from}:${row.nonce}`)),
      )),
    );
    await this.dropStale(stale, finish, rebroadcast, (row) =>
      row.error
        ? `the node refused it: ${row.error}`
        : `not mined within ${Math.round(this.dropAfterMs / 60_000)} min and no longer known to the node`,
    );
    // Never broadcast while it waited, and what would have funded its sender failed: dropped
    // at once, unless the node holds it after all.
    await this.dropStale(
      orphaned,
      finish,
      rebroadcast,
      () => "never sent: the transaction it waited for was not mined",
    );
    await this.broadcast(rebroadcast);

    if (finished.length > 0)
      for (const listener of this.listeners)
        await Promise.resolve(listener(finished)).catch((error: Error) =>
          this.options.log?.(`transactions: a listener failed: ${error.message}`),
        );
    return finished;
  }

  /**
   * Where the transactions that signed-ahead ones (`after`) wait for stand in this pass: open
   * (no receipt yet, or itself waiting), mined, or failed (reverted, or final without being
   * mined). `checked` are the open ones whose receipts this pass read, in `receipts`' order.
   */
  private async awaited(
    rows: OpenTx[],
    checked: OpenTx[],
    receipts: Array<{ result?: unknown; error?: unknown } | undefined>,
  ): Promise<Map<string, "open" | "mined" | "failed">> {
    const state = new Map<string, "open" | "mined" | "failed">();
    const waiting = rows.filter((row) => row.status === "signed" && row.afterId);
    if (waiting.length === 0) return state;
    const index = new Map(checked.map((row, i) => [row.id, i]));
    const open = new Set(rows.map((row) => row.id));
    const gone: string[] = [];
    for (const { afterId } of waiting) {
      const id = afterId as string;
      const i = index.get(id);
      if (i !== undefined) {
        const receipt = receipts[i]?.result as Receipt | null | undefined;
        state.set(id, !receipt ? "open" : receipt.status === "0x1" ? "mined" : "failed");
      } else if (open.has(id)) state.set(id, "open");
      else gone.push(id);
    }
    for (const [id, status] of await this.repo.statusesOf(gone))
      state.set(
        id,
        status === "mined" ? "mined" : OPEN_STATUSES.includes(status) ? "open" : "failed",
      );
    return state;
  }

  /**
   * "Replaced" is final, and a caller may pay again after it (a refund's next attempt), so it
   * is never concluded from one read: a receipt and a nonce read in one batch can disagree (the
   * node mines between them, or a load-balanced endpoint answers them from nodes at different
   * heights), and a mined transaction would then look replaced. A candidate is read again:
   * a receipt now → it was mined after all; still none while its nonce was already used
   * `REPLACED_CONFIRMATIONS` blocks below the head → replaced; otherwise the next pass decides.
   */
  private async confirmReplaced(
    candidates: OpenTx[],
    head: bigint,
  ): Promise<{ mined: Array<{ row: OpenTx; receipt: Receipt }>; replaced: OpenTx[] }> {
    if (candidates.length === 0) return { mined: [], replaced: [] };
    const froms = [...new Set(candidates.map((row) => row.from))];
    const settled = head > REPLACED_CONFIRMATIONS ? head - REPLACED_CONFIRMATIONS : 0n;
    const answers = await rpcBatch<unknown>(this.chain.rpcUrl, [
      ...candidates.map((row) => ({ method: "eth_getTransactionReceipt", params: [row.txHash] })),
      ...froms.map((from) => ({
        method: "eth_getTransactionCount",
        params: [from, `0x${settled.toString(16)}`],
      })),
    ]);
    const settledNonce = new Map<string, number>();
    for (const [i, from] of froms.entries()) {
      const result = answers[candidates.length + i]?.result as Hex | undefined;
      if (result) settledNonce.set(from, Number(BigInt(result)));
    }
    const mined: Array<{ row: OpenTx; receipt: Receipt }> = [];
    const replaced: OpenTx[] = [];
    for (const [i, row] of candidates.entries()) {
      const answer = answers[i];
      if (!answer || answer.error) continue;
      const receipt = answer.result as Receipt | null | undefined;
      if (receipt) mined.push({ row, receipt });
      else if ((settledNonce.get(row.from) ?? 0) > row.nonce) replaced.push(row);
    }
    return { mined, replaced };
  }

  /**
   * Past `dropAfterMs` (or waiting for one that failed): a transaction the node still holds can
   * land, so it stays open (and is rebroadcast); one it does not hold is dropped, and `why`
   * says why.
   */
  private async dropStale(
    stale: OpenTx[],
    finish: (
      rows: OpenTx[],
      values: { status: TxStatusValue; error: string | null },
    ) => Promise<void>,
    rebroadcast: OpenTx[],
    why: (row: OpenTx) => string,
  ): Promise<void> {
    if (stale.length === 0) return;
    const known = await rpcBatch<unknown>(
      this.chain.rpcUrl,
      stale.map((row) => ({ method: "eth_getTransactionByHash", params: [row.txHash] })),
    );
    for (const [i, row] of stale.entries()) {
      const answer = known[i];
      if (answer?.error) continue;
      if (answer?.result) {
        rebroadcast.push(row);
        continue;
      }
      await finish([row], { status: "dropped", error: why(row) });
    }
  }

  /**
   * Dropped ones that landed after all: mined (or reverted) from now on. Not while an open row
   * of ours holds the same nonce (the caller leaves those to the pass that finds that one
   * replaced); should another process record one meanwhile, the unique live nonce refuses the
   * change and the next pass tries again.
   */
  private async landedAfterDrop(
    landed: Array<{ row: OpenTx; receipt: Receipt }>,
  ): Promise<TxRow[]> {
    const moved: TxRow[] = [];
    for (const { row, receipt } of landed) {
      const ok = receipt.status === "0x1";
      await this.repo
        .finish(
          [row.id],
          {
            status: ok ? "mined" : "reverted",
            error: ok ? "landed after it was declared dropped" : "execution reverted",
            blockNumber: BigInt(receipt.blockNumber),
            fee: BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice ?? row.gasPrice),
          },
          ["dropped"],
        )
        .then((rows) => moved.push(...rows))
        .catch((error: Error) =>
          this.options.log?.(
            `transactions: ${row.txHash} landed after it was dropped; recorded next pass (${error.message})`,
          ),
        );
    }
    return moved;
  }

  /** Broadcasts rows in one batch and records each answer; nothing is decided here. */
  private async broadcast(rows: Array<OpenTx & { rawTx?: string }>): Promise<void> {
    if (rows.length === 0) return;
    const missing = rows.filter((row) => row.rawTx === undefined).map((row) => row.id);
    const raws = missing.length > 0 ? await this.repo.rawTxs(missing) : new Map<string, string>();
    const answers = await rpcBatch<Hex>(
      this.chain.rpcUrl,
      rows.map((row) => ({
        method: "eth_sendRawTransaction",
        params: [row.rawTx ?? raws.get(row.id)],
      })),
    ).catch((error: Error) => {
      this.options.log?.(`transactions: broadcast failed: ${error.message}`);
      return null;
    });
    if (!answers) return;
    const accepted: string[] = [];
    for (const [i, answer] of answers.entries()) {
      const row = rows[i] as OpenTx;
      const message = answer.error?.message ?? "";
      if (!answer.error || BENIGN_REFUSAL.test(message)) accepted.push(row.id);
      else {
        this.options.log?.(`transactions: the node refused ${row.txHash}: ${message}`);
        await this.repo.broadcasted([row.id], false, message);
      }
    }
    await this.repo.broadcasted(accepted, true, null);
  }

  /**
   * For intents that retry an earlier attempt (`retries`): the nonce each must take (that
   * attempt's, while still unused), or none when the chain used it for another transaction.
   * Throws when an earlier attempt is open, was never recorded, or landed.
   */
  private async retryNonces(intents: TxIntent[]): Promise<Map<string, number>> {
    const pinned = new Map<string, number>();
    const retrying = intents.filter((intent) => intent.retries !== undefined);
    if (retrying.length === 0) return pinned;
    const earlier = new Map(
      (await this.repo.byKeys(retrying.map((intent) => intent.retries as string))).map((row) => [
        row.key,
        row,
      ]),
    );
    const rows = retrying.map((intent) => {
      const row = earlier.get(intent.retries as string);
      if (!row)
        throw new Error(`${intent.key} retries ${intent.retries}, which was never recorded`);
      if (!isFinal(row.status))
        throw new RetryRefused(`${intent.key} retries ${row.key}, which is still on its way`);
      if (row.status === "mined")
        throw new RetryRefused(`${intent.key} retries ${row.key}, which landed`);
      return row;
    });
    const fates = await this.fates(rows).catch((error: Error) => {
      throw new RetryRefused(`${error.message}; the retry waits`);
    });
    for (const [i, row] of rows.entries()) {
      const intent = retrying[i] as TxIntent;
      if (fates[i] === "landed")
        throw new RetryRefused(`${intent.key} retries ${row.key}, which landed after all`);
      if (fates[i] === "may land") pinned.set(intent.key, row.nonce);
    }
    return pinned;
  }

  /**
   * What can still become of final transactions that were not mined: "landed" (a receipt:
   * mined after all, before a reconcile recorded it), "may land" (its nonce still unused: a
   * pool may hold it), or "never" (it reverted, or its nonce went to another). One batch read;
   * throws when the node cannot say.
   */
  async fates(
    rows: Array<Pick<TxSummary, "key" | "txHash" | "from" | "nonce" | "status">>,
  ): Promise<Array<"landed" | "may land" | "never">> {
    if (rows.length === 0) return [];
    const answers = await rpcBatch<unknown>(this.chain.rpcUrl, [
      ...rows.map((row) => ({ method: "eth_getTransactionReceipt", params: [row.txHash] })),
      ...rows.map((row) => ({ method: "eth_getTransactionCount", params: [row.from, "latest"] })),
    ]);
    return rows.map((row, i) => {
      const receipt = answers[i];
      const count = answers[rows.length + i]?.result as Hex | undefined;
      if (!receipt || receipt.error || !count)
        throw new Error(`could not read what became of ${row.key}`);
      // Reverted, it moved nothing (and a receipt that reverted moved nothing either).
      if (row.status === "reverted") return "never";
      const status = (receipt.result as Receipt | null)?.status;
      if (status) return status === "0x1" ? "landed" : "never";
      return row.nonce >= Number(BigInt(count)) ? "may land" : "never";
    });
  }

  /** Each address's pending nonce, in one batch. */
  private async pendingNonces(addresses: string[]): Promise<Map<string, number>> {
    const answers = await rpcBatch<Hex>(
      this.chain.rpcUrl,
      addresses.map((address) => ({
        method: "eth_getTransactionCount",
        params: [address, "pending"],
      })),
    );
    return new Map(
      addresses.map((address, i) => {
        const result = answers[i]?.result;
        if (!result) throw new Error(`could not read the nonce of ${address}`);
        return [address, Number(BigInt(result))];
      }),
    );
  }
}
