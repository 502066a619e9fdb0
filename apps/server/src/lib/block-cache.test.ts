import { describe, expect, it, vi } from "vitest";
import { BlockCache, type BlockHead } from "./block-cache.ts";

/** A chain whose head the test moves, counting head reads; time is the test's too. */
const chainAt = (start = 100n) => {
  let head: BlockHead = { number: start, hash: `0x${start.toString(16)}` };
  let clock = 0;
  const counts = { head: 0 };
  const cache = (options: ConstructorParameters<typeof BlockCache>[1] = {}) =>
    new BlockCache(
      async () => {
        counts.head++;
        return head;
      },
      { now: () => clock, ...options },
    );
  return {
    cache,
    counts,
    /** A new block (the head cache expires with the clock moving past its TTL). */
    mine: () => {
      head = { number: head.number + 1n, hash: `0x${(head.number + 1n).toString(16)}` };
      clock += 1000;
    },
    /** Another block at the same height (a local snapshot reverted and re-mined). */
    remine: (hash: `0x${string}`) => {
      head = { ...head, hash };
      clock += 1000;
    },
    tick: (ms: number) => {
      clock += ms;
    },
  };
};

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A batched reader that records every batch it was asked. */
const reader = () => {
  const batches: string[][] = [];
  return {
    batches,
    read: async (keys: string[]) => {
      batches.push(keys);
      return keys.map((key) => `value of ${key} in read ${batches.length}`);
    },
  };
};

describe("BlockCache", () => {
  it("reads a key once per block however many callers ask at once", async () => {
    const chain = chainAt();
    const cache = chain.cache();
    let reads = 0;
    const read = async () => ++reads;
    const answers = await Promise.all(Array.from({ length: 50 }, () => cache.once("k", read)));
    expect(new Set(answers)).toEqual(new Set([1]));
    expect(await cache.once("k", read)).toBe(1);
    expect(reads).toBe(1);
    expect(chain.counts.head).toBe(1);
  });

  it("reads again once the head moves to a new block", async () => {
    const chain = chainAt();
    const cache = chain.cache();
    let reads = 0;
    const read = async () => ++reads;
    expect(await cache.once("k", read)).toBe(1);
    chain.mine();
    expect(await cache.once("k", read)).toBe(2);
    expect(await cache.once("k", read)).toBe(2);
  });

  it("reads again when a block at the same height replaces the one it read at", async () => {
    const chain = chainAt();
    const cache = chain.cache();
    let reads = 0;
    const read = async () => ++reads;
    await cache.once("k", read);
    chain.remine("0xbeef");
    expect(await cache.once("k", read)).toBe(2);
  });

  it("asks the head once per TTL, one request shared by concurrent callers", async () => {
    const chain = chainAt();
    const cache = chain.cache({ headTtlMs: 250 });
    await Promise.all(Array.from({ length: 20 }, () => cache.head()));
    chain.tick(200);
    await cache.head();
    expect(chain.counts.head).toBe(1);
    chain.tick(100);
    await cache.head();
    expect(chain.counts.head).toBe(2);
  });

  it("reads the head again after a read saw a newer block", async () => {
    const chain = chainAt();
    const cache = chain.cache();
    await cache.head();
    cache.observe(100n);
    await cache.head();
    expect(chain.counts.head).toBe(1);
    cache.observe(101n);
    await cache.head();
    expect(chain.counts.head).toBe(2);
  });

  it("does not keep a failed read: the next caller reads again", async () => {
    const chain = chainAt();
    const cache = chain.cache();
    let calls = 0;
    const flaky = async () => {
      calls++;
      if (calls === 1) throw new Error("node busy");
      return "fine";
    };
    await expect(cache.once("k", flaky)).rejects.toThrow("node busy");
    expect(await cache.once("k", flaky)).toBe("fine");
    expect(calls).toBe(2);
  });

  it("does not keep a failed batched read either", async () => {
    const chain = chainAt();
    const cache = chain.cache();
    let calls = 0;
    const flaky = async (keys: string[]) => {
      calls++;
      if (calls === 1) throw new Error("node busy");
      return keys.map(() => 7);
    };
    await expect(cache.many("bnb", ["a", "b"], flaky)).rejects.toThrow("node busy");
    expect(await cache.many("bnb", ["a", "b"], flaky)).toEqual([7, 7]);
  });

  it("batches the keys callers ask in one turn into one read, each key once", async () => {
    const chain = chainAt();
    const cache = chain.cache();
    const { batches, read } = reader();
    const [first, second] = await Promise.all([
      cache.many("bnb", ["a", "b"], read),
      cache.many("bnb", ["b", "c"], read),
    ]);
    expect(batches).toEqual([["a", "b", "c"]]);
    expect(first).toEqual(["value of a in read 1", "value of b in read 1"]);
    expect(second).toEqual(["value of b in read 1", "value of c in read 1"]);
    expect(await cache.many("bnb", ["c", "a"], read)).toEqual([
      "value of c in read 1",
      "value of a in read 1",
    ]);
    expect(batches).toHaveLength(1);
  });

  it("sends the keys asked while a read is out together in the next read", async () => {
    const chain = chainAt();
    const cache = chain.cache();
    const batches: string[][] = [];
    let release: () => void = () => {};
    const read = async (keys: string[]) => {
      batches.push(keys);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return keys.map(() => batches.length);
    };
    const first = cache.many("bnb", ["a"], read);
    while (batches.length === 0) await turn();
    const later = [cache.many("bnb", ["b"], read), cache.many("bnb", ["c"], read)];
    for (let i = 0; i < 5; i++) await turn();
    expect(batches).toEqual([["a"]]);
    release();
    expect(await first).toEqual([1]);
    expect(await Promise.all(later)).toEqual([[2], [2]]);
    expect(batches).toEqual([["a"], ["b", "c"]]);
  });

  it("splits a batch past maxBatch keys", async () => {
    const chain = chainAt();
    const cache = chain.cache({ maxBatch: 2 });
    const { batches, read } = reader();
    await cache.many("bnb", ["a", "b", "c"], read);
    expect(batches).toEqual([["a", "b"], ["c"]]);
  });

  it("reads without the cache while the head cannot be read", async () => {
    let reads = 0;
    const cache = new BlockCache(async () => {
      throw new Error("node away");
    });
    const read = async () => ++reads;
    expect(await cache.once("k", read)).toBe(1);
    expect(await cache.once("k", read)).toBe(2);
    expect(await cache.many("bnb", ["a"], async (keys) => keys.map(() => 5))).toEqual([5]);
  });

  it("keeps a final value across blocks", async () => {
    const chain = chainAt();
    const cache = chain.cache();
    cache.keepFinal("tx:0x1", { status: "success" });
    chain.mine();
    chain.mine();
    expect(cache.final("tx:0x1")).toEqual({ status: "success" });
    expect(cache.final("tx:0x2")).toBeUndefined();
  });

  it("drops the least recently used final value past maxFinal", () => {
    const cache = new BlockCache(async () => ({ number: 1n, hash: "0x1" }), { maxFinal: 2 });
    cache.keepFinal("a", 1);
    cache.keepFinal("b", 2);
    cache.final("a");
    cache.keepFinal("c", 3);
    expect(cache.final("a")).toBe(1);
    expect(cache.final("b")).toBeUndefined();
    expect(cache.final("c")).toBe(3);
    expect(cache.finalCount).toBe(2);
  });
});

describe("BlockCache.recent", () => {
  /** A batched reader whose reads after the first wait for `release`. */
  const heldReader = () => {
    const state = { reads: 0, release: () => {} };
    const read = async (keys: string[]) => {
      const n = ++state.reads;
      if (n > 1) await new Promise<void>((resolve) => (state.release = resolve));
      return keys.map((key) => `${key}@${n}`);
    };
    return { state, read };
  };

  it("answers a poll from the last block's values without waiting for the new block's read", async () => {
    const chain = chainAt();
    const cache = chain.cache();
    const { state, read } = heldReader();
    expect(await cache.recent("bnb", ["a", "b"], read)).toEqual({
      values: ["a@1", "b@1"],
      block: 100n,
    });
    chain.mine();
    await cache.head();
    // Block 101's read is held: the poll is answered from block 100, and says so.
    expect(await cache.recent("bnb", ["a", "b"], read)).toEqual({
      values: ["a@1", "b@1"],
      block: 100n,
    });
    await vi.waitFor(() => expect(state.reads).toBe(2));
    state.release();
    await vi.waitFor(async () =>
      expect(await cache.recent("bnb", ["a", "b"], read)).toEqual({
        values: ["a@2", "b@2"],
        block: 101n,
      }),
    );
    expect(state.reads).toBe(2);
  });

  it("waits for a new read when the values it has are two blocks old", async () => {
    const chain = chainAt();
    const cache = chain.cache();
    const read = reader().read;
    await cache.recent("bnb", ["a"], read);
    chain.mine();
    chain.mine();
    await cache.head();
    expect(await cache.recent("bnb", ["a"], read)).toEqual({
      values: ["value of a in read 2"],
      block: 102n,
    });
  });

  it("reads the head again before answering a lone poll that comes blocks later", async () => {
    const chain = chainAt();
    const cache = chain.cache();
    const read = reader().read;
    await cache.recent("bnb", ["a"], read);
    // Ten seconds on, nobody asked meanwhile: the head it knew (100) is no longer the head.
    chain.mine();
    chain.mine();
    chain.mine();
    expect(await cache.recent("bnb", ["a"], read)).toEqual({
      values: ["value of a in read 2"],
      block: 103n,
    });
  });

  it("waits for a read of a key it never read", async () => {
    const chain = chainAt();
    const cache = chain.cache();
    const read = reader().read;
    await cache.recent("bnb", ["a"], read);
    expect(await cache.recent("bnb", ["a", "b"], read)).toEqual({
      values: ["value of a in read 1", "value of b in read 2"],
      block: 100n,
    });
  });

  it("says how old its answer is: the oldest block among the values", async () => {
    const chain = chainAt();
    const cache = chain.cache();
    const { state, read } = heldReader();
    await cache.recent("bnb", ["a"], read);
    chain.mine();
    const b = cache.many("bnb", ["b"], read);
    await vi.waitFor(() => expect(state.reads).toBe(2));
    state.release();
    await b;
    // "a" was read at 100 and its 101 read has not started; "b" was read at 101.
    expect(await cache.recent("bnb", ["a", "b"], read)).toMatchObject({ block: 100n });
  });
});
