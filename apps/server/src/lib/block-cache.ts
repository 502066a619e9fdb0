import type { Hex, PublicClient } from "viem";

/** The chain head a cached value belongs to. */
export interface BlockHead {
  number: bigint;
  hash: Hex;
}

export interface BlockCacheOptions {
  /** How long one head read answers every caller, ms (default 250). */
  headTtlMs?: number;
  /** Values kept for one head at most (default 50,000); past it reads are shared only in flight. */
  maxEntries?: number;
  /** Final values kept for good, least recently used dropped first (default 10,000). */
  maxFinal?: number;
  /** Keys one batched read asks at most (default 500). */
  maxBatch?: number;
  now?: () => number;
}

interface Pending<V> {
  key: string;
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

interface Batch {
  read: (keys: string[]) => Promise<unknown[]>;
  queue: Array<Pending<unknown>>;
  /** A read of this kind is on its way: the queue waits for it, then goes as one read. */
  busy: boolean;
  /** The queue is already due to be flushed on the next turn of the event loop. */
  scheduled: boolean;
}

/** A Map in least-recently-used order, at most `max` entries. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  /** The value without making it the most recent (a read that must stay cheap). */
  peek(key: string): V | undefined {
    return this.map.get(key);
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }

  get size(): number {
    return this.map.size;
  }
}

const oldest = (blocks: readonly bigint[]): bigint | null =>
  blocks.reduce<bigint | null>((min, block) => (min === null || block < min ? block : min), null);

/**
 * Chain reads shared per block: what many callers ask while the head stays the same is read
 * once, and what is final (a transaction's outcome deep enough below the head) is kept for good.
 *
 * - The head (number and hash) is read at most once per `headTtlMs` (250 ms), one request shared
 *   by every caller meanwhile; a value is never older than the head known when it was asked for.
 * - `once(key, read)`: one read per key and head; concurrent callers share its promise.
 * - `many(kind, keys, read)`: per key and head too, and the keys missing from the cache are
 *   batched: while one read of `kind` is on its way, the keys asked meanwhile wait and go
 *   together in the next one (so 200 payment-status polls in a block make a handful of
 *   multicalls, not 200 `eth_getBalance`).
 * - A failed read is not kept: the next caller reads again.
 * - When the head changes (a new block, or another block at the same height after a local
 *   snapshot revert: the hash says so), every value of the old head is dropped.
 *
 * Only reads go through it: sending paths keep reading the chain themselves (viem's client has
 * cacheTime 0 on purpose).
 *
 * @example
 * const [balance] = await reads.many("bnb", [address], (keys) => readBalances(keys));
 */
export class BlockCache {
  private readonly headTtlMs: number;
  private readonly maxEntries: number;
  private readonly maxBatch: number;
  private readonly now: () => number;
  private known: { head: BlockHead; at: number } | null = null;
  private asking: Promise<BlockHead> | null = null;
  private valuesOf: string | null = null;
  private values = new Map<string, Promise<unknown>>();
  /** The newest value `many` read per key, with the head it was read at (for `recent`). */
  private readonly lastRead: Lru<{ value: unknown; head: BlockHead }>;
  private readonly batches = new Map<string, Batch>();
  private readonly finals: Lru<unknown>;

  constructor(
    private readonly readHead: () => Promise<BlockHead>,
    options: BlockCacheOptions = {},
  ) {
    this.headTtlMs = options.headTtlMs ?? 250;
    this.maxEntries = options.maxEntries ?? 50_000;
    this.maxBatch = options.maxBatch ?? 500;
    this.now = options.now ?? Date.now;
    this.finals = new Lru(options.maxFinal ?? 10_000);
    this.lastRead = new Lru(this.maxEntries);
  }

  /** The head, read at most once per `headTtlMs` whoever asks. */
  async head(): Promise<BlockHead> {
    if (this.known && this.now() - this.known.at < this.headTtlMs) return this.known.head;
    this.asking ??= this.readHead()
      .then((head) => {
        this.known = { head, at: this.now() };
        return head;
      })
      .finally(() => {
        this.asking = null;
      });
    return this.asking;
  }

  /**
   * A read saw block `blockNumber` (a receipt, a multicall's block): past the head known, the
   * head is read again by the next caller, so a value from before that block is not served.
   */
  observe(blockNumber: bigint): void {
    if (this.known && blockNumber > this.known.head.number) this.known = null;
  }

  /** `read` once per head for `key`; callers meanwhile share it. A failure is not kept. */
  async once<T>(key: string, read: () => Promise<T>): Promise<T> {
    const at = await this.valuesAtHead();
    if (!at) return read();
    const { values } = at;
    const cached = values.get(key);
    if (cached) return cached as Promise<T>;
    const reading = read();
    this.keep(values, key, reading);
    return reading;
  }

  /**
   * One value per key and head, in the order of `keys`. The keys not cached are read by `read`
   * (which answers one value per key it is given, in order), batched with other callers'.
   */
  async many<V>(
    kind: string,
    keys: readonly string[],
    read: (keys: string[]) => Promise<V[]>,
  ): Promise<V[]> {
    const at = await this.valuesAtHead();
    if (!at) return this.readInChunks(keys, read);
    const { values, head } = at;
    return Promise.all(
      keys.map((key) => {
        const id = `${kind}\u0000${key}`;
        const cached = values.get(id);
        if (cached) return cached as Promise<V>;
        const value = new Promise<V>((resolve, reject) =>
          this.enqueue(kind, read as Batch["read"], {
            key,
            resolve: resolve as (value: unknown) => void,
            reject,
          }),
        );
        value.then(
          (read) => this.lastRead.set(id, { value: read, head }),
          () => {},
        );
        this.keep(values, id, value);
        return value;
      }),
    );
  }

  /**
   * `many` for a poll that may be answered from the last block: when every key was read at the
   * head or the block before it, those values are answered at once (and the current head's
   * read starts behind them, for the next caller), so a poll never waits for a new block's
   * read. Otherwise it waits, as `many` does. The head itself is `head()`'s (one read per
   * 250 ms for every caller). `block` is the oldest block
   * among the values answered: how old they are.
   */
  async recent<V>(
    kind: string,
    keys: readonly string[],
    read: (keys: string[]) => Promise<V[]>,
  ): Promise<{ values: V[]; block: bigint | null }> {
    const ids = keys.map((key) => `${kind}\u0000${key}`);
    // The head as `head()` knows it (read again once its TTL passed, one read for every caller):
    // a value is never answered as recent against a head older than that.
    let known: BlockHead | undefined;
    try {
      known = await this.head();
    } catch {
      known = undefined;
    }
    if (known) {
      // Peeked, not touched: every new head's read sets them again, which keeps them recent.
      const last = ids.map((id) => this.lastRead.peek(id));
      const recent = (entry: (typeof last)[number]) =>
        entry !== undefined &&
        (entry.head.number === known.number
          ? entry.head.hash === known.hash
          : entry.head.number + 1n === known.number);
      if (last.every(recent)) {
        // Values of the block before: the head's read starts behind them, for the next caller.
        if (last.some((entry) => entry?.head.number !== known.number))
          void this.many(kind, keys, read).catch(() => {});
        const entries = last as Array<{ value: unknown; head: BlockHead }>;
        return {
          values: entries.map((entry) => entry.value as V),
          block: oldest(entries.map((entry) => entry.head.number)),
        };
      }
    }
    const values = await this.many(kind, keys, read);
    const blocks = ids.map((id) => this.lastRead.peek(id)?.head.number);
    return {
      values,
      block: blocks.every((block) => block !== undefined)
        ? oldest(blocks as bigint[])
        : (this.known?.head.number ?? null),
    };
  }

  /** A final value kept for good (a mined transaction's status), or undefined. */
  final<T>(key: string): T | undefined {
    return this.finals.get(key) as T | undefined;
  }

  /** Keeps a value that can no longer change; the least recently used go past `maxFinal`. */
  keepFinal<T>(key: string, value: T): void {
    this.finals.set(key, value);
  }

  /** How many final values are kept (for tests and figures). */
  get finalCount(): number {
    return this.finals.size;
  }

  /** The values of the current head; null when the head cannot be read (reads go uncached). */
  private async valuesAtHead(): Promise<{
    values: Map<string, Promise<unknown>>;
    head: BlockHead;
  } | null> {
    let head: BlockHead;
    try {
      head = await this.head();
    } catch {
      return null;
    }
    const id = `${head.number}:${head.hash}`;
    if (this.valuesOf !== id) {
      this.valuesOf = id;
      this.values = new Map();
    }
    return { values: this.values, head };
  }

  private keep(values: Map<string, Promise<unknown>>, key: string, value: Promise<unknown>) {
    if (values.size >= this.maxEntries) return;
    values.set(key, value);
    // A failed read is forgotten (unless a newer one took its place), so the next caller reads.
    value.catch(() => {
      if (values.get(key) === value) values.delete(key);
    });
  }

  private enqueue(kind: string, read: Batch["read"], pending: Pending<unknown>) {
    let batch = this.batches.get(kind);
    if (!batch) {
      batch = { read, queue: [], busy: false, scheduled: false };
      this.batches.set(kind, batch);
    }
    batch.read = read;
    batch.queue.push(pending);
    this.schedule(batch);
  }

  /** Callers of this turn of the event loop go together; while a read is out, they wait for it. */
  private schedule(batch: Batch) {
    if (batch.busy || batch.scheduled || batch.queue.length === 0) return;
    batch.scheduled = true;
    setImmediate(() => {
      batch.scheduled = false;
      void this.flush(batch);
    });
  }

  private async flush(batch: Batch) {
    if (batch.busy || batch.queue.length === 0) return;
    const taken = batch.queue.splice(0, this.maxBatch);
    batch.busy = true;
    try {
      const keys = [...new Set(taken.map((p) => p.key))];
      const answers = await batch.read(keys);
      const byKey = new Map(keys.map((key, i) => [key, answers[i]]));
      for (const pending of taken) pending.resolve(byKey.get(pending.key));
    } catch (error) {
      for (const pending of taken) pending.reject(error);
    } finally {
      batch.busy = false;
      this.schedule(batch);
    }
  }

  /** Without a head (the node is away), `read` as the caller would have, `maxBatch` at a time. */
  private async readInChunks<V>(
    keys: readonly string[],
    read: (keys: string[]) => Promise<V[]>,
  ): Promise<V[]> {
    const chunks: Array<Promise<V[]>> = [];
    for (let i = 0; i < keys.length; i += this.maxBatch)
      chunks.push(read(keys.slice(i, i + this.maxBatch)));
    return (await Promise.all(chunks)).flat();
  }
}

/**
 * The block cache of `client`'s chain: the head is `eth_getBlockByNumber("latest")`'s number and
 * hash (the hash tells a re-mined height apart from the one it replaced).
 */
export const blockCacheFor = (client: PublicClient, options?: BlockCacheOptions): BlockCache =>
  new BlockCache(async () => {
    const block = await client.getBlock({ blockTag: "latest" });
    if (block.hash === null) throw new Error("the latest block has no hash");
    return { number: block.number, hash: block.hash };
  }, options);
