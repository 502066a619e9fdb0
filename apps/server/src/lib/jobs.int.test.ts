import { sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Database } from "../db/client.ts";
import { createTestDatabase } from "../test/database.ts";
import { failedJobs, JobEngine, perBlockQueue } from "./jobs.ts";

/** The job engine on this run's database: PGlite, or Postgres when DATABASE_URL is set. */
let database: Database;
const engines: JobEngine[] = [];

const engine = async (pollingIntervalSeconds = 0.5) => {
  const started = await JobEngine.start(database.jobStore, { pollingIntervalSeconds });
  engines.push(started);
  return started;
};

const until = async (check: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

beforeEach(async () => {
  database = await createTestDatabase();
});

afterEach(async () => {
  for (const started of engines.splice(0)) await started.stop();
  await database.close();
});

describe("the job engine", () => {
  it("runs a job once, in whichever of two processes takes it", async () => {
    const [a, b] = [await engine(), await engine()];
    const ran: string[] = [];
    await a.queue<{ n: number }>({ name: "work" }, async (data) => {
      ran.push(`a${data.n}`);
    });
    await b.queue<{ n: number }>({ name: "work" }, async (data) => {
      ran.push(`b${data.n}`);
    });
    for (let n = 0; n < 10; n++) await (n % 2 ? a : b).send("work", { n });
    await until(() => ran.length >= 10);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(ran.map((r) => r.slice(1)).sort((x, y) => Number(x) - Number(y))).toEqual(
      Array.from({ length: 10 }, (_, n) => String(n)),
    );
  });

  it("adds nothing for a second send with the same id", async () => {
    const jobs = await engine();
    let runs = 0;
    await jobs.queue({ name: "once" }, async () => {
      runs++;
    });
    const id = "7d0c4a52-3f52-4a4e-9b61-0a6c2b1e9f11";
    expect(await jobs.send("once", {}, { id })).toBe(id);
    await until(() => runs === 1);
    expect(await jobs.send("once", {}, { id })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(runs).toBe(1);
  });

  it("runs each per-block queue once per block however many processes announce it, even late", async () => {
    const [a, b] = [await engine(), await engine()];
    const runs: string[] = [];
    for (const jobs of [a, b])
      for (const name of ["per-block-a", "per-block-b"]) {
        await jobs.queue<{ blockNumber: number }>({ name, policy: "stately" }, async (data) => {
          runs.push(`${name}:${data.blockNumber}`);
        });
        jobs.eachBlock(name);
      }
    await Promise.all([a.announceBlock(7), b.announceBlock(7), a.announceBlock(7)]);
    await until(() => runs.length === 2);
    await b.announceBlock(7);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(runs.sort()).toEqual(["per-block-a:7", "per-block-b:7"]);
  });

  it("sends a per-block pass a job only on the blocks where its due condition holds", async () => {
    const jobs = await engine();
    await database.db.execute(sql`create table gate (open boolean not null)`);
    const runs: string[] = [];
    for (const name of ["always", "gated"]) {
      await jobs.queue<{ blockNumber: number }>(perBlockQueue(name), async (data) => {
        runs.push(`${name}:${data.blockNumber}`);
      });
    }
    jobs.eachBlock("always");
    jobs.eachBlock("gated", () => sql`exists (select 1 from gate where open)`);

    expect(await jobs.announceBlock(1)).toEqual(["always"]);
    // Block 1's pass runs before block 2 is announced: a stately queue keeps one job waiting,
    // so a second announced while the first still waits would be coalesced into it.
    await until(() => runs.length === 1);
    await database.db.execute(sql`insert into gate values (true)`);
    expect(await jobs.announceBlock(2)).toEqual(["always", "gated"]);
    await until(() => runs.length === 3);
    expect(runs.sort()).toEqual(["always:1", "always:2", "gated:2"]);
  });

  it("hands a pass left active by a process that died to the next process at once, not when it expires", async () => {
    const [dead, next] = [await engine(), await engine()];
    const runs: string[] = [];
    let release = () => {};
    const hung = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The dead process took block 1's pass and never finished it (its one worker is stuck).
    await dead.onEachBlock(perBlockQueue("abandoned"), async () => {
      runs.push("dead");
      await hung;
    });
    await dead.announceBlock(1);
    await until(() => runs.includes("dead"));
    // The next process works the queue only from here: working it from the start, it could take
    // block 1's pass before the dead one did (it did once on Postgres), and nothing would hang.
    await next.onEachBlock(perBlockQueue("abandoned"), async () => {
      runs.push("next");
    });
    try {
      expect(await next.retryAbandoned(new Date())).toBe(1);
      await next.announceBlock(2);
      // Within a few seconds, not the queue's 30 s expiry.
      await until(() => runs.includes("next"), 5_000);
    } finally {
      release();
    }
  });

  it("retries a job with retries left that a dead process abandoned after its delay, not at the next poll", async () => {
    const [dead, next] = [await engine(), await engine(30)];
    const runs: string[] = [];
    let release = () => {};
    const hung = new Promise<void>((resolve) => {
      release = resolve;
    });
    const patient = { name: "patient", retryLimit: 3, retryDelay: 1 };
    await dead.queue(patient, async () => {
      runs.push("dead");
      await hung;
    });
    await dead.send("patient", {});
    await until(() => runs.includes("dead"));
    // As above: the next process's first fetch must not find the job before the dead one does.
    await next.queue(patient, async () => {
      runs.push("next");
    });
    try {
      expect(await next.retryAbandoned(new Date())).toBe(1);
      // Its 1 s retry delay, not the 30 s poll.
      await until(() => runs.includes("next"), 5_000);
    } finally {
      release();
    }
  });

  it("starts its own delayed job when it falls due, not at the next poll", async () => {
    const jobs = await engine(60);
    let ranAt = 0;
    await jobs.queue({ name: "later" }, async () => {
      ranAt = Date.now();
    });
    const due = Date.now() + 1500;
    await jobs.send("later", {}, { startAfter: new Date(due) });
    await until(() => ranAt > 0, 10_000);
    expect(ranAt).toBeGreaterThanOrEqual(due);
  });

  it("tries its own failed job again after the retry delay, not at the next poll", async () => {
    const jobs = await engine(60);
    let attempts = 0;
    await jobs.queue({ name: "flaky", retryLimit: 2, retryDelay: 1 }, async () => {
      attempts++;
      if (attempts === 1) throw new Error("the node was away");
    });
    await jobs.send("flaky", {});
    await until(() => attempts === 2, 10_000);
  });

  it("keeps at most one waiting pass of a stately queue, however often it is sent", async () => {
    const jobs = await engine();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let runs = 0;
    await jobs.queue({ name: "pass", policy: "stately" }, async () => {
      runs++;
      await gate;
    });
    await jobs.send("pass", {});
    await until(() => runs === 1);
    const queued = await Promise.all([1, 2, 3, 4].map(() => jobs.send("pass", {})));
    expect(queued.filter(Boolean)).toHaveLength(1);
    release();
    await until(() => runs === 2);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(runs).toBe(2);
  });

  it("retries a failing job and lists it among the failed once its retries are used up", async () => {
    const jobs = await engine();
    let attempts = 0;
    await jobs.queue({ name: "broken", retryLimit: 1, retryDelay: 1 }, async () => {
      attempts++;
      throw new Error("the node refused it");
    });
    const id = await jobs.send("broken", { what: "x" });
    await until(() => attempts === 2);
    let failed: Awaited<ReturnType<typeof failedJobs>> = [];
    for (let i = 0; i < 50 && failed.length === 0; i++) {
      failed = await failedJobs(database.db);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(failed[0]).toMatchObject({
      queue: "broken",
      id,
      data: { what: "x" },
      retryCount: 1,
      error: expect.objectContaining({ message: "the node refused it" }),
    });
  });

  it("enqueues in a transaction only when it commits", async () => {
    const jobs = await engine();
    const ran: string[] = [];
    await jobs.queue<{ tag: string }>({ name: "tx" }, async (data) => {
      ran.push(data.tag);
    });
    await database.db
      .transaction(async (tx) => {
        await jobs.send("tx", { tag: "rolled back" }, { tx });
        throw new Error("rollback");
      })
      .catch(() => {});
    await database.db.transaction(async (tx) => {
      await jobs.send("tx", { tag: "committed" }, { tx });
    });
    jobs.wake("tx");
    await until(() => ran.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(ran).toEqual(["committed"]);
  });

  it("holds a lock in one place at a time until it is released", async () => {
    const first = await database.tryLock("launch:1");
    expect(first).not.toBeNull();
    expect(await database.tryLock("launch:1")).toBeNull();
    const other = await database.tryLock("launch:2");
    expect(other).not.toBeNull();
    await other?.();
    await first?.();
    const again = await database.tryLock("launch:1");
    expect(again).not.toBeNull();
    await again?.();
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "tries a held lock again and again on a pooled connection, not on a new connection each time",
    async () => {
      const holder = await database.tryLock("bumper:1");
      expect(holder).not.toBeNull();
      // Counts the connections opened (it calls through: the connections are real).
      const connects = vi.spyOn(pg.Client.prototype, "connect");
      try {
        for (let attempt = 0; attempt < 20; attempt++)
          expect(await database.tryLock("bumper:1")).toBeNull();
        expect(connects.mock.calls.length).toBeLessThanOrEqual(1);
      } finally {
        connects.mockRestore();
      }
      await holder?.();
      const after = await database.tryLock("bumper:1");
      expect(after).not.toBeNull();
      await after?.();
    },
  );
});
