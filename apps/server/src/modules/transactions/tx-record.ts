import { randomUUID } from "node:crypto";
import { recoverSenders, rpcBatch } from "@bundler/chain";
import { type Address, getAddress, type Hex, keccak256, parseTransaction } from "viem";
import type { DbOrTx, NewTxRow, OpenTx, TxRow } from "./transactions.repository.ts";
import type { TxContext } from "./tx-context.ts";
import { type BundleTx, type BusyGuard, RetryRefused, type TxIntent } from "./tx-intent.ts";

/** Each address's pending nonce, in one batch. */
export async function pendingNonces(
  rpcUrl: string,
  addresses: string[],
): Promise<Map<string, number>> {
  const answers = await rpcBatch<Hex>(
    rpcUrl,
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

/**
 * Under the senders' locks, in one database transaction: reserves a nonce for every intent
 * whose key is new (a retry's pinned one, else the lowest free from the pending nonce), signs
 * it and records it. Answers the row of every intent (undefined for one whose sender is
 * `busy`), the rows to broadcast now, and the busy senders.
 */
export async function recordIntents(
  { repo, chain }: TxContext,
  intents: TxIntent[],
  {
    froms,
    pending,
    pinned,
    defaultPrice,
    guard,
    validUntilBlock,
  }: {
    froms: Address[];
    /** Each sender's pending nonce. */
    pending: Map<string, number>;
    /** The nonce each retry must take (see `retryNonces`). */
    pinned: Map<string, number>;
    /** For the intents without a gas price. */
    defaultPrice: bigint;
    guard?: BusyGuard | undefined;
    /** A bundle's: recorded to be submitted by the caller, dropped once the chain passes it. */
    validUntilBlock?: bigint | undefined;
  },
): Promise<{ rows: Array<TxRow | undefined>; created: TxRow[]; busy: Map<Address, OpenTx> }> {
  const busy = new Map<Address, OpenTx>();
  const { rows, created } = await repo.underAddressLocks(froms, async (tx) => {
    const keys = intents.flatMap((i) => [
      i.key,
      ...(i.after ? [i.after] : []),
      ...(i.retries ? [i.retries] : []),
    ]);
    const known = new Map((await repo.byKeys([...new Set(keys)], tx)).map((r) => [r.key, r]));
    // From the lowest nonce this call may take: a retry's pinned one can be below pending.
    const floor = new Map(froms.map((from) => [from, pending.get(from) ?? 0]));
    for (const intent of intents) {
      const nonce = pinned.get(intent.key);
      const from = getAddress(intent.account.address);
      if (nonce !== undefined) floor.set(from, Math.min(floor.get(from) ?? 0, nonce));
    }
    const taken = await repo.liveNoncesOf(tx, floor);
    // Busy: another request's transaction sent since the caller read the mined nonces, on
    // its way or landed already (then the caller's amounts are out of date).
    if (guard)
      for (const row of await repo.liveFrom(
        tx,
        new Map(froms.map((from) => [from, guard.minedNonces.get(from) ?? 0])),
      ))
        if (!guard.ownKeys.has(row.key)) busy.set(getAddress(row.from), row);
    // Retries take their pinned nonces before any new intent of the call picks one: a new
    // refund listed first must not take the nonce a retry is bound to (the retry would then
    // be refused, and with it the whole call, every time it is made).
    const reserved = new Set<string>();
    for (const intent of intents) {
      const retried = pinned.get(intent.key);
      if (retried === undefined || known.has(intent.key)) continue;
      const from = getAddress(intent.account.address);
      const used = taken.get(from) as Set<number>;
      // Another of ours took the nonce meanwhile: if that one fails, the dropped attempt
      // could still land, so the retry waits until it is settled.
      if (used.has(retried))
        throw new RetryRefused(
          `${intent.key} waits: another transaction holds nonce ${retried} of ${from}`,
        );
      used.add(retried);
      reserved.add(intent.key);
    }
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
      const retried = reserved.has(intent.key) ? pinned.get(intent.key) : undefined;
      if (retried !== undefined) nonce = retried;
      else while (used.has(nonce)) nonce++;
      used.add(nonce);
      const gasPrice = intent.gasPrice ?? defaultPrice;
      const rawTx = await intent.account.signTransaction({
        type: "legacy",
        chainId: chain.chainId,
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
        retriesId: intent.retries === undefined ? null : (known.get(intent.retries)?.id ?? null),
        validUntilBlock: validUntilBlock ?? null,
      });
    }
    // A retry signed at its dropped attempt's nonce with the same price, recipient and value
    // is that very transaction (same hash): the dropped row is recorded again under the new
    // key, as `recordBundle` does, and the rows signed to wait for it point at that row.
    const dropped = await repo.droppedHashes(
      tx,
      fresh.map((row) => row.txHash),
    );
    const inserted: TxRow[] = [];
    const renamed = new Map<string, string>();
    // The very attempt it retries, sent again: its row keeps the attempts before it.
    for (const { id, retriesId: _itself, ...row } of fresh.filter((r) => dropped.has(r.txHash))) {
      const retaken = await repo.retakeDropped(tx, row);
      if (!retaken) continue;
      inserted.push(retaken);
      renamed.set(id as string, retaken.id);
    }
    inserted.push(
      ...(await repo.insert(
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
  return { rows, created, busy };
}

/**
 * `TxManager.recordBundle`: a bundle's signed transactions recorded under their senders'
 * locks, never broadcast.
 */
export async function recordBundle(
  { repo }: TxContext,
  txs: BundleTx[],
  validUntilBlock: bigint,
  /** Runs first in the recording's database transaction; throwing records nothing. */
  guard?: (tx: DbOrTx) => Promise<void>,
): Promise<TxRow[]> {
  // One sender at a time, the loop turning between them: a 50-wallet bundle's recoveries held
  // it for tens of milliseconds when they ran at once.
  const senders = await recoverSenders(txs.map((t) => t.raw));
  const decoded = txs.map((t, i) => ({
    t,
    parsed: parseTransaction(t.raw),
    from: getAddress(senders[i] as Address),
  }));
  return repo.underAddressLocks(
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
      const dropped = await repo.droppedHashes(
        tx,
        rows.map((row) => row.txHash),
      );
      const recorded: TxRow[] = [];
      for (const row of rows.filter((r) => dropped.has(r.txHash))) {
        const retaken = await repo.retakeDropped(tx, row);
        if (retaken) recorded.push(retaken);
      }
      recorded.push(
        ...(await repo.insert(
          tx,
          rows.filter((r) => !dropped.has(r.txHash)),
        )),
      );
      const order = new Map(rows.map((row, i) => [row.key, i]));
      return recorded.sort((a, b) => (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0));
    },
  );
}
